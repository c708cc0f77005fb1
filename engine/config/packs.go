package config

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
	"gopkg.in/yaml.v3"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/policies"
	"github.com/chatlint/chatlint/rules"
)

// PackLoader resolves pack references — builtin:NAME, a folder, or an OPA
// bundle (.tar.gz) — and the packs they extend, each pack once.
type PackLoader struct {
	packs    []*policy.Pack
	sources  map[*policy.Pack]Source
	seen     map[string]bool
	builtins []*policy.Pack
	stack    []string // references being loaded, to report extends cycles
}

// NewPackLoader returns an empty loader.
func NewPackLoader() *PackLoader {
	return &PackLoader{seen: map[string]bool{}, sources: map[*policy.Pack]Source{}}
}

// Source is where a pack was read from, for the files beside its rules:
// its fixture tests under tests/.
type Source struct {
	Ref string // as named: builtin:NAME, a folder or a bundle
	// FSs hold the pack's folder (a built-in pack may span several embedded
	// trees); nil for bundles.
	FSs []fs.FS
	// Names name each FS's root in messages.
	Names []string
}

// Source returns where p was read from.
func (l *PackLoader) Source(p *policy.Pack) Source { return l.sources[p] }

// Packs returns the packs loaded, each after the packs it extends.
func (l *PackLoader) Packs() []*policy.Pack { return l.packs }

// AddBuiltins adds every built-in pack.
func (l *PackLoader) AddBuiltins() error {
	all, err := l.builtin()
	if err != nil {
		return err
	}
	for _, p := range all {
		if p.Kind == policy.KindCleanup { // fix runs these; check does not
			continue
		}
		if err := l.Add("builtin:" + p.Name); err != nil {
			return err
		}
	}
	return nil
}

func (l *PackLoader) builtin() ([]*policy.Pack, error) {
	if l.builtins == nil {
		b, err := builtin.All()
		if err != nil {
			return nil, fmt.Errorf("loading built-in packs: %w", err)
		}
		l.builtins = b
	}
	return l.builtins, nil
}

// Add loads the pack ref names; a relative folder or bundle is taken from
// the current folder.
func (l *PackLoader) Add(ref string) error {
	key := ref
	if !strings.HasPrefix(ref, "builtin:") {
		abs, err := filepath.Abs(ref)
		if err != nil {
			return err
		}
		key = abs
	}
	for _, s := range l.stack {
		if s == key {
			return fmt.Errorf("pack %s extends itself (through %s)", ref, strings.Join(l.stack, " -> "))
		}
	}
	if l.seen[key] {
		return nil
	}
	l.stack = append(l.stack, key)
	defer func() { l.stack = l.stack[:len(l.stack)-1] }()
	p, extends, err := l.load(ref)
	if err != nil {
		return err
	}
	l.sources[p] = sourceOf(ref, p)
	for _, e := range extends {
		if !strings.HasPrefix(e, "builtin:") && !filepath.IsAbs(e) {
			e = filepath.Join(ref, e) // relative to the extending pack's folder
		}
		if err := l.Add(e); err != nil {
			return fmt.Errorf("pack %s: extends: %w", ref, err)
		}
	}
	l.seen[key] = true
	l.packs = append(l.packs, p)
	return nil
}

func (l *PackLoader) load(ref string) (*policy.Pack, []string, error) {
	if name, ok := strings.CutPrefix(ref, "builtin:"); ok {
		all, err := l.builtin()
		if err != nil {
			return nil, nil, err
		}
		var names []string
		for _, p := range all {
			if p.Name == name {
				return p, nil, nil
			}
			names = append(names, "builtin:"+p.Name)
		}
		return nil, nil, fmt.Errorf("no built-in pack %q (there are %s)", name, strings.Join(names, ", "))
	}
	info, err := os.Stat(ref)
	if err != nil {
		return nil, nil, fmt.Errorf("pack %w", err)
	}
	if !info.IsDir() {
		if strings.HasSuffix(ref, ".tar.gz") || strings.HasSuffix(ref, ".tgz") {
			p, err := loadBundle(ref)
			return p, nil, err
		}
		return nil, nil, fmt.Errorf("pack %s: not a folder, builtin:NAME or an OPA bundle (.tar.gz)", ref)
	}
	p, err := policy.LoadFS(os.DirFS(ref), ".", ref)
	if err != nil {
		return nil, nil, fmt.Errorf("pack %s: %w", ref, err)
	}
	extends, err := readExtends(ref)
	return p, extends, err
}

func sourceOf(ref string, p *policy.Pack) Source {
	src := Source{Ref: ref}
	if name, ok := strings.CutPrefix(ref, "builtin:"); ok {
		for _, t := range []struct {
			fsys   fs.FS
			prefix string
		}{{policies.FS, "builtin:policies"}, {rules.FS, "builtin:rules"}} {
			if sub, err := fs.Sub(t.fsys, name); err == nil {
				if _, err := fs.Stat(sub, "."); err == nil {
					src.FSs = append(src.FSs, sub)
					src.Names = append(src.Names, t.prefix+"/"+name)
				}
			}
		}
		return src
	}
	if fi, err := os.Stat(ref); err == nil && fi.IsDir() {
		src.FSs, src.Names = []fs.FS{os.DirFS(ref)}, []string{ref}
	}
	return src
}

// readExtends reads the extends list of a folder's pack.yaml; the policy
// loader reads the rest of that file.
func readExtends(dir string) ([]string, error) {
	for _, n := range []string{"pack.yaml", "pack.yml"} {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var m struct {
			Extends yaml.Node `yaml:"extends"`
		}
		name := filepath.Join(dir, n)
		if err := yaml.Unmarshal(src, &m); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		if m.Extends.Kind == 0 {
			return nil, nil
		}
		p := parser{file: name}
		out := p.strings(&m.Extends, "extends")
		if len(p.errs) > 0 {
			return nil, p.errs[0]
		}
		return out, nil
	}
	return nil, nil
}

// loadBundle reads the Rego modules of an OPA bundle with OPA's bundle
// reader. Signatures are not verified (chatlint has no keys to check them
// with); data files in the bundle are not used, since rules see only the
// document.
func loadBundle(path string) (*policy.Pack, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	kept, err := boundedBundle(f) // bundle_read.go
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", path, err)
	}
	b, err := bundle.NewCustomReader(bundle.NewTarballLoaderWithBaseURL(bytes.NewReader(kept), "")).
		WithSkipBundleVerification(true).
		WithRegoVersion(ast.RegoV1).
		WithSizeLimitBytes(bundleEntryLimit).
		Read()
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", path, err)
	}
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".tar.gz"), ".tgz")
	if n, ok := b.Manifest.Metadata["name"].(string); ok && n != "" {
		name = n
	}
	p := &policy.Pack{Name: name}
	for _, m := range b.Modules {
		file := policy.File{Name: path + "/" + strings.TrimPrefix(m.Path, "/"), Source: m.Raw}
		if strings.HasSuffix(m.Path, "_test.rego") {
			p.Tests = append(p.Tests, file)
		} else {
			p.Rego = append(p.Rego, file)
		}
	}
	if len(p.Rego) == 0 {
		return nil, fmt.Errorf("bundle %s has no Rego policy", path)
	}
	return p, nil
}
