// Package artifacts is Workrun's local file store (docs/product.md W3). A file field
// holds an artifact id; the bytes live under <data dir>/artifacts/<first two
// hex digits of the SHA-256>/<SHA-256> and the metadata (id, cleaned name,
// original name, media type, size, digest, who made it) in SQLite through
// package store.
//
// Durability. Put streams the content into a temporary file while hashing
// it, fsyncs it, renames it to its digest name and fsyncs the directory, and
// only then commits the metadata row: a returned ArtifactInfo always has its
// bytes on disk. Equal contents share one blob.
//
// Names. Names from outside are hostile: CleanName keeps only a bounded base
// name without path components, control characters or reserved device
// names. The name as received is kept in Original, for display only; it is
// never used to build a path.
//
// Media types. The declared type is kept when it agrees with the bytes
// (gabriel-vasile/mimetype); otherwise the detected type wins.
//
// Garbage collection never happens on its own: GC removes blobs that no
// artifact row references when called explicitly (`workrun gc`). Blobs
// younger than the grace period are kept so a Put in flight in another
// process is never collected under it.
//
// Temporary files (<data dir>/artifacts/tmp: a Put's file before its
// rename, spool files) are held with flock by their process while open.
// One that no process holds was left by a process that ended (a SIGKILL, a
// power loss): New (every start) and GC remove it at once, whatever its
// age; GC's grace applies only where flock does not exist.
//
// Spool files (Spool, workrun.Spooler) keep a remote result's chunks
// before they become an artifact or a value. They are encrypted with
// AES-256-CTR under a key made at random for each process and never
// written anywhere, so a server's echo of a secret in them is unreadable
// at rest; the redaction happens when the bytes leave the spool, where a
// secret split across two chunks is whole again.
package artifacts
