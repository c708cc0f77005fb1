package policy

import (
	"github.com/cespare/xxhash/v2"

	"github.com/chatlint/chatlint/engine/rule"
)

// Parsing the built-in packs' Rego was the largest part of a run's start-up,
// though a default run on chat evaluates none of it: Compile needs of it only
// the rule table, the packages and what each file may read of input, to know
// where the Rego applies and what documents must carry. Those are generated
// beside the embedded Rego (rego_table_gen.go, by TestRegoTableIsCurrent
// with -update), so a built-in pack whose Rego is the one the table was made
// from is not parsed at start; its modules are parsed when OPA compiles them
// (compiledParts.program), on the first document a Rego rule applies to. A
// pack whose Rego differs (or any pack not built in) is parsed at start, as
// before, so its errors show there.

// regoSummary is what Compile reads of one pack's parsed Rego (regoPack,
// parseRegoFile).
type regoSummary struct {
	pack   string
	digest uint64 // regoDigest of the pack's Rego files
	rules  []rule.Rule
	pkgs   []string
	files  []regoFile
	// actions says a package of the pack defines the actions set, which
	// is evaluated wherever OPA runs (openSets).
	actions bool
}

// regoFile is one parsed Rego file of a pack: its name and what it may read
// of input's members that Compile asks about.
type regoFile struct {
	name  string
	reads memberReads
}

// get says whether the file may read input.<member> (lookup, tokens, or
// contentMember for the content facts).
func (r memberReads) get(member string) bool {
	switch member {
	case "lookup":
		return r.lookup
	case contentMember:
		return r.content
	}
	return r.tokens
}

// useRegoTable lets tests compile the built-in packs as if there were no
// table, to compare the two.
var useRegoTable = true

// tableSummary returns the generated summary of p's Rego, nil when p has no
// Rego, some file of it is not built in, or its Rego is not the one the
// table was made from.
func tableSummary(p *Pack) *regoSummary {
	if !useRegoTable || !builtinRego([]*Pack{p}) || len(p.Rego) == 0 {
		return nil
	}
	for i := range regoTable {
		s := &regoTable[i]
		if s.pack == p.Name {
			if s.digest != regoDigest(p.Rego) {
				return nil
			}
			return s
		}
	}
	return nil
}

// regoDigest digests the names and sources of Rego files, in order.
func regoDigest(files []File) uint64 {
	d := xxhash.New()
	for _, f := range files {
		d.WriteString(f.Name)
		d.Write([]byte{0})
		d.Write(f.Source)
		d.Write([]byte{0})
	}
	return d.Sum64()
}
