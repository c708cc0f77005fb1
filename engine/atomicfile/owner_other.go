//go:build !unix

package atomicfile

import (
	"io/fs"
	"os"
)

// keepOwner has nothing to keep where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}
