// Package pack holds what every part of the policy engine shares: a pack's
// sources as loaded (File, Pack, Profile, the model table), and what its
// rules yield (Hit, CompileError). policy re-exports each under its own name.
package pack

import (
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// File is one source file of a pack.
type File struct {
	// Name is how the file is named in messages: a path on disk, or
	// "builtin:policies/integrity/x.rego" for embedded files.
	Name   string
	Source []byte
}

// Pack is a named set of rules.
type Pack struct {
	Name        string
	Description string
	Kind        string // "" for checks; KindCleanup for cleanup rules (actions.go), which check leaves out
	Rego        []File // policies, *_test.rego excluded
	Tests       []File // *_test.rego: never evaluated by check
	YAML        []File // YAML rule files (pack.yaml excluded)
	// Profiles are the rule profiles the pack's rules know besides the
	// default one (pack.yaml profiles).
	Profiles []Profile
	// Models is the pack's model table (models.yaml), DefaultModel the
	// model it names as the default.
	Models       []Model
	DefaultModel string
}

// Profile is a named set of rule variants. A run checks documents under one
// profile (check --profile), which rules read as the document's profile
// field; a pack declares the profiles its rules know, so a misspelt profile
// is an error rather than a silent default.
type Profile struct {
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description" json:"description"`
	// Provider is true for a profile that stands for a provider's own
	// validator (a fine-tuning upload): under it a file fails exactly when
	// the provider would refuse it. The rules that run under every profile
	// are chatlint's own checks there, and their errors are reported as
	// warnings, except those named in Checks.
	Provider bool `yaml:"provider" json:"provider,omitempty"`
	// Checks, on a provider profile, names the rules shared with other
	// profiles that implement one of the provider's own checks, and so
	// keep their severity under it.
	Checks []string `yaml:"checks" json:"checks,omitempty"`
}

// packKeys are the keys of pack.yaml; profileKeys those of a profile,
// read off Profile's yaml tags so that a new member is a valid key at once.
// extends is engine/config's (it loads the packs a pack extends).
var (
	packKeys    = []string{"description", "extends", "kind", "name", "profiles"}
	profileKeys = yamlKeys(reflect.TypeFor[Profile]())
)

// yamlKeys lists the yaml keys of a struct's fields, sorted.
func yamlKeys(t reflect.Type) []string {
	var keys []string
	for f := range t.Fields() {
		if k, _, _ := strings.Cut(f.Tag.Get("yaml"), ","); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// checkPackKeys refuses a key pack.yaml does not have, at its line: a typo
// ("kinds: cleanup", "profile:") was ignored, and the pack silently loaded
// as something else.
func checkPackKeys(name string, doc *yaml.Node) error {
	if len(doc.Content) == 0 {
		return nil // an empty file has no keys
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fmt.Errorf("%s:%d: pack.yaml must be a mapping", name, root.Line)
	}
	unknown := func(m *yaml.Node, valid []string, what string) error {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i]; !slices.Contains(valid, k.Value) {
				return fmt.Errorf("%s:%d: unknown key %q in %s (valid keys: %s)", name, k.Line, k.Value, what, strings.Join(valid, ", "))
			}
		}
		return nil
	}
	if err := unknown(root, packKeys, "pack.yaml"); err != nil {
		return err
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "profiles" || root.Content[i+1].Kind != yaml.SequenceNode {
			continue
		}
		for _, pr := range root.Content[i+1].Content {
			if pr.Kind != yaml.MappingNode {
				continue
			}
			if err := unknown(pr, profileKeys, "a profile"); err != nil {
				return err
			}
		}
	}
	return nil
}

type packMeta struct {
	Name        string    `yaml:"name"`
	Description string    `yaml:"description"`
	Profiles    []Profile `yaml:"profiles"`
	Kind        string    `yaml:"kind"`
}

// LoadFS reads a pack from the tree rooted at dir in fsys: every *.rego and
// *.yaml/*.yml file, at any depth, and the optional pack.yaml. prefix is put
// before file paths in messages. The pack's name defaults to the folder name.
func LoadFS(fsys fs.FS, dir, prefix string) (*Pack, error) {
	p := &Pack{Name: path.Base(dir)}
	if dir == "." {
		p.Name = path.Base(strings.TrimRight(prefix, "/"))
	}
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		base := path.Base(name)
		if !strings.HasSuffix(base, ".rego") && !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".yml") {
			return nil
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(name, dir), "/")
		f := File{Name: path.Join(prefix, rel), Source: src}
		switch {
		case base == "pack.yaml" || base == "pack.yml":
			// Parsed once, then decoded and checked from the node.
			var doc yaml.Node
			var m packMeta
			err := yaml.Unmarshal(src, &doc)
			if err == nil && len(doc.Content) > 0 {
				err = doc.Decode(&m)
			}
			if err != nil {
				return fmt.Errorf("%s: %v", f.Name, err)
			}
			if err := checkPackKeys(f.Name, &doc); err != nil {
				return err
			}
			if m.Name != "" {
				p.Name = m.Name
			}
			p.Description = m.Description
			for _, pr := range m.Profiles {
				if pr.Name == "" || strings.TrimSpace(pr.Description) == "" {
					return fmt.Errorf("%s: a profile needs a name and a description", f.Name)
				}
				pr.Description = strings.TrimSpace(pr.Description)
				p.Profiles = append(p.Profiles, pr)
			}
			if m.Kind != "" && m.Kind != KindCleanup {
				return fmt.Errorf("%s: kind must be %s or left out, not %q", f.Name, KindCleanup, m.Kind)
			}
			p.Kind = m.Kind
		case base == ModelsFile:
			ms, def, err := parseModels(f)
			if err != nil {
				return err
			}
			p.Models, p.DefaultModel = append(p.Models, ms...), def
		case strings.HasSuffix(base, "_test.rego"):
			p.Tests = append(p.Tests, f)
		case strings.HasSuffix(base, ".rego"):
			p.Rego = append(p.Rego, f)
		default:
			p.YAML = append(p.YAML, f)
		}
		return nil
	})
	return p, err
}

// Merge adds the files of other (the same pack, from another folder) to p.
func (p *Pack) Merge(other *Pack) {
	if p.Description == "" {
		p.Description = other.Description
	}
	p.Profiles = append(p.Profiles, other.Profiles...)
	p.Models = append(p.Models, other.Models...)
	if p.DefaultModel == "" {
		p.DefaultModel = other.DefaultModel
	}
	if p.Kind == "" {
		p.Kind = other.Kind
	}
	p.Rego = append(p.Rego, other.Rego...)
	p.Tests = append(p.Tests, other.Tests...)
	p.YAML = append(p.YAML, other.YAML...)
}
