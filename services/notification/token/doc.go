// Package token makes and hashes API tokens. Only the SHA-256 hash of a
// token is stored: a leaked database does not leak working credentials, and
// a lookup by hash compares no secret byte by byte.
package token
