//go:build !unix

package main

// lockInput does not lock on Windows (docs/limits.md): two runs on one file
// are caught by the identity check before the rename instead.
func lockInput(string) (func(), error) { return func() {}, nil }
