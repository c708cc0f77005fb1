package policy

import (
	"io/fs"
	"slices"
)

// BuiltinSource is an embedded tree of packs: one folder per pack.
type BuiltinSource struct {
	FS fs.FS
	// Prefix names the tree in messages, e.g. "builtin:policies".
	Prefix string
}

// LoadBuiltin loads the packs of every source; folders of the same name in
// several sources (a pack's Rego in policies/, its YAML in rules/) make one
// pack. Packs are returned sorted by name.
func LoadBuiltin(sources ...BuiltinSource) ([]*Pack, error) {
	byName := map[string]*Pack{}
	var names []string
	for _, src := range sources {
		entries, err := fs.ReadDir(src.FS, ".")
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			p, err := LoadFS(src.FS, e.Name(), src.Prefix+"/"+e.Name())
			if err != nil {
				return nil, err
			}
			if prev, ok := byName[e.Name()]; ok {
				if p.Name != e.Name() {
					prev.Name = p.Name
				}
				prev.Merge(p)
				continue
			}
			byName[e.Name()] = p
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	out := make([]*Pack, len(names))
	for i, n := range names {
		out[i] = byName[n]
	}
	return out, nil
}
