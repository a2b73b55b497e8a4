// Package sse reads a text/event-stream body (Server-Sent Events) for the
// A2A and MCP clients, which both receive JSON-RPC replies as SSE.
//
// What it tolerates, as the SDK servers write it: "data:" with or without
// the one space after the colon; several data lines of one event joined
// with "\n"; id: and event: lines; comments (": keep-alive"); LF or CRLF
// line ends; unknown fields (ignored). An event without data lines is not
// dispatched. An id holding a NUL byte is ignored, as the WHATWG rules say.
//
// What it refuses: an event whose joined data exceeds the cap given to
// NewReader, and a single line longer than that cap, is ErrEventTooLarge —
// refused before the line is buffered whole, so a hostile server cannot
// make the client hold more than about the cap. A body that ends inside an
// event (no blank line after it) is ErrTruncated; a clean end is io.EOF.
//
// Memory: each Reader takes a 32 KiB line buffer from a pool and gives it
// back on Release, since most MCP replies are one small event and a fresh
// buffer per request would cost more than the reply. A line that does not
// fit that buffer is gathered in a growing buffer of its own, which then
// becomes the event's data without another copy (a big inline file).
package sse
