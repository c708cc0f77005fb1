package builtin

import "github.com/chatlint/chatlint/engine/document"

// CleanupRefs returns the cleanup packs fixing runs on files of format f, as
// stages in order: the packs the user named (--pack), each on every format,
// or else the built-in packs the format's adapter names (Adapter.Cleanup),
// as "builtin:NAME" references; none for an unknown format or one fix
// refuses.
func CleanupRefs(f document.Format, packs []string) []string {
	if len(packs) > 0 {
		return packs
	}
	a := document.Lookup(f)
	if a == nil {
		return nil
	}
	var refs []string
	for _, name := range a.Cleanup {
		refs = append(refs, "builtin:"+name)
	}
	return refs
}
