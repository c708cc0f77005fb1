package config

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// bombBundle writes a gzipped tarball whose entries are size bytes of
// zeros each: a few kilobytes on disk.
func bombBundle(t *testing.T, path string, names []string, size int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	tw := tar.NewWriter(gz)
	zeros := io.LimitReader(zeroReader{}, size)
	for _, n := range names {
		tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: size, Typeflag: tar.TypeReg})
		zeros.(*io.LimitedReader).N = size
		io.Copy(tw, zeros)
	}
	tw.Close()
	gz.Close()
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestBundleBomb: a bundle whose entries unpack to far more than it weighs
// is refused while it is read, each entry and the total bounded before
// OPA's loader holds anything; the memory the refusal takes stays small.
func TestBundleBomb(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name  string
		files []string
		size  int64
		want  string
	}{
		{"one big policy", []string{"/p.rego"}, 5 << 20, "/p.rego is 5242880 bytes, over the limit of 4194304"},
		{"data files past the total", []string{"/a/data.json", "/b/data.json", "/c/data.json"}, 30 << 20, "the bundle unpacks to more than 67108864 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".tar.gz")
			bombBundle(t, p, tt.files, tt.size)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err := NewPackLoader().Add(p)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Add: %v, want %q", err, tt.want)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Errorf("reading the bundle allocated %d MB", grew>>20)
			}
		})
	}
	// Data files within the bounds are skipped, not parsed: a pack is its
	// policies.
	p := filepath.Join(dir, "ok.tar.gz")
	tarball(t, p, map[string]string{"/p.rego": "package chatlint.ok\n", "/data.json": "not JSON at all"})
	if err := NewPackLoader().Add(p); err != nil {
		t.Errorf("a bundle with an unused data file: %v", err)
	}
}
