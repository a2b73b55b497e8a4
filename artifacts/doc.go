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
package artifacts
