package config

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tarball writes an OPA bundle with the given files.
func tarball(t *testing.T, path string, files map[string]string) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPackLoader(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "base/b.rego"), "package chatlint.base\n")
	write(t, filepath.Join(dir, "team/pack.yaml"), "name: team\nextends: [../base, builtin:integrity]\n")
	write(t, filepath.Join(dir, "team/t.rego"), "package chatlint.team\n")
	tarball(t, filepath.Join(dir, "ext.tar.gz"), map[string]string{
		"/.manifest":            `{"revision": "1", "metadata": {"name": "external"}}`,
		"/policies/x.rego":      "package chatlint.ext\n",
		"/policies/x_test.rego": "package chatlint.ext_test\n",
	})
	l := NewPackLoader()
	for _, ref := range []string{filepath.Join(dir, "team"), filepath.Join(dir, "base"), filepath.Join(dir, "ext.tar.gz")} {
		if err := l.Add(ref); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, p := range l.Packs() {
		got = append(got, p.Name)
	}
	// Extended packs come first, and base, named twice, loads once.
	if diff := cmp.Diff([]string{"base", "integrity", "team", "external"}, got); diff != "" {
		t.Errorf("packs (-want +got):\n%s", diff)
	}
	ext := l.Packs()[3]
	if len(ext.Rego) != 1 || len(ext.Tests) != 1 || !strings.HasSuffix(ext.Rego[0].Name, "ext.tar.gz/policies/x.rego") {
		t.Errorf("bundle pack: %+v", ext)
	}
}

func TestPackLoaderErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a/pack.yaml"), "extends: [../b]\n")
	write(t, filepath.Join(dir, "b/pack.yaml"), "extends: [../a]\n")
	write(t, filepath.Join(dir, "file.txt"), "x")
	write(t, filepath.Join(dir, "broken.tar.gz"), "not gzip")
	write(t, filepath.Join(dir, "bad/pack.yaml"), "extends: {x: y}\n")
	tests := []struct{ ref, want string }{
		{filepath.Join(dir, "a"), "extends itself"},
		{filepath.Join(dir, "file.txt"), "not a folder, builtin:NAME or an OPA bundle"},
		{filepath.Join(dir, "broken.tar.gz"), "bundle " + filepath.Join(dir, "broken.tar.gz")},
		{filepath.Join(dir, "missing"), "no such file"},
		{"builtin:nope", `no built-in pack "nope" (there are builtin:`},
		{filepath.Join(dir, "bad"), "pack.yaml:1: extends must be a list of strings"},
	}
	for _, tt := range tests {
		err := NewPackLoader().Add(tt.ref)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.ref, err, tt.want)
		}
	}
}
