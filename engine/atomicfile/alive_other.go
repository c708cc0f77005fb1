//go:build !unix

package atomicfile

// processAlive cannot tell elsewhere: leftovers are kept (docs/limits.md).
func processAlive(int) bool { return true }
