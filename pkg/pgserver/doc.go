// Package pgserver runs a private PostgreSQL cluster from the machine's own
// binaries (initdb, postgres on PATH): in a short temporary directory,
// listening only on a unix socket there, tied to the starting process by a
// parent-death signal so that a crash leaves no server behind (stale
// directories of dead owners are swept on the next start). Tests get their
// databases through pgtest; `tms run-split` runs the services on one.
package pgserver
