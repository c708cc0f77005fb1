package policy

import (
	"strings"

	"github.com/chatlint/chatlint/engine/rule"
)

// The dataset document's token summary (its "tokens" member) costs a
// tokenizer pass over every record, so the fold computes it only when a
// dataset rule that applies under the run's profile may read it: a Rego
// dataset rule declared in a module that may read input.tokens, or a YAML
// dataset rule in a file that names "tokens". A Rego module that reads it
// and declares no rule (a helper other modules may call) counts for every
// dataset rule.
//
// The same bookkeeping serves the content facts (dataset_content.go): a
// tokenReads whose member is contentMember.
type tokenReads struct {
	member string          // what is read: "tokens", or contentMember
	files  map[string]bool // Rego modules and YAML files that may read it
	helper bool            // a module that may read it declares no rule
}

// rego adds the Rego files that may read the member (their reads are
// regoInputReads', as parseRegoFile or the generated table says).
func (t *tokenReads) rego(files []regoFile, rules []rule.Rule) {
	member := t.member
	if member == "" {
		member = "tokens"
	}
	for _, f := range files {
		if !f.reads.get(member) {
			continue
		}
		name := f.name
		t.add(name)
		declares := false
		for _, r := range rules {
			declares = declares || sourceFile(r.Source) == name
		}
		t.helper = t.helper || !declares
	}
}

func (t *tokenReads) add(file string) {
	if t.files == nil {
		t.files = map[string]bool{}
	}
	t.files[file] = true
}

// sourceFile is the file of a rule's source, file:line.
func sourceFile(src string) string {
	if i := strings.LastIndexByte(src, ':'); i > 0 {
		return src[:i]
	}
	return src
}

// DatasetReadsTokens reports whether a dataset rule that applies under the
// profile may read the dataset document's token summary.
func (e *Engine) DatasetReadsTokens(profile string) bool {
	profile = profileOf(profile)
	for _, r := range e.rules {
		if r.Scope != rule.ScopeDataset || e.disabled[r.ID] || !r.AppliesUnder(profile) {
			continue
		}
		if e.tokenReads.helper || e.tokenReads.files[sourceFile(r.Source)] {
			return true
		}
	}
	return false
}
