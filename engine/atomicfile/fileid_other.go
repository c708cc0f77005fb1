//go:build !unix

package atomicfile

import "os"

// fileID is a file's identity where the system gives it; elsewhere
// (Windows) os.SameFile compares inputs one by one.
type fileID struct{ dev, ino uint64 }

func fileKey(os.FileInfo) (fileID, bool) { return fileID{}, false }
