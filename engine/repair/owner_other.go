//go:build !unix

package repair

import (
	"io/fs"
	"os"
)

// keepOwner has nothing to keep where files have no Unix owner.
func keepOwner(*os.File, fs.FileInfo) {}
