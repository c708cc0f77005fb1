package config

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// A bundle is a gzipped tarball from elsewhere, and compression makes a
// small file a big one: OPA's loader reads every entry whole into memory,
// each up to its size limit, with no limit on their sum, and parses the
// data files (a 1.2 MB bundle took 4.96 GB and 98 s). So chatlint reads the
// archive first, under these bounds, and hands OPA only what a pack uses.
const (
	// bundleEntryLimit bounds one kept entry (a Rego file, the manifest):
	// policy text.
	bundleEntryLimit = 4 << 20
	// bundleTotalLimit bounds the bytes the archive unpacks to, entries not
	// kept included: they are decompressed to be skipped.
	bundleTotalLimit = 64 << 20
)

// boundedBundle reads the gzipped tarball r within the bounds above and
// returns a gzipped tarball of its Rego files and manifest only (data files
// are not used: rules see only the document). An entry or a total past its
// bound is an error naming it, raised as soon as the header or the bytes
// read say so, before anything big is held.
func boundedBundle(r io.Reader) ([]byte, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("archive read failed: %w", err)
	}
	in := &limitedReader{r: gz, left: bundleTotalLimit}
	tr := tar.NewReader(in)
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestSpeed)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, bundleReadError(err)
		}
		if h.Typeflag != tar.TypeReg || !keptInBundle(h.Name) {
			if _, err := io.Copy(io.Discard, tr); err != nil {
				return nil, bundleReadError(err)
			}
			continue
		}
		if h.Size > bundleEntryLimit {
			return nil, fmt.Errorf("%s is %d bytes, over the limit of %d for a file of a bundle", h.Name, h.Size, bundleEntryLimit)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return nil, bundleReadError(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: h.Name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// keptInBundle: the entries a pack is made of.
func keptInBundle(name string) bool {
	return strings.HasSuffix(name, ".rego") || path.Base(name) == ".manifest"
}

var errBundleTotal = fmt.Errorf("the bundle unpacks to more than %d bytes", bundleTotalLimit)

func bundleReadError(err error) error {
	if errors.Is(err, errBundleTotal) {
		return err
	}
	return fmt.Errorf("archive read failed: %w", err)
}

// limitedReader fails with errBundleTotal once more than left bytes are
// read (io.LimitReader would end quietly, as if the archive were short).
type limitedReader struct {
	r    io.Reader
	left int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errBundleTotal
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, errBundleTotal
	}
	return n, err
}
