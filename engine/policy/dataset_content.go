package policy

import (
	"slices"

	"github.com/chatlint/chatlint/engine/rule"
)

// The dataset document's content facts — the record types and the copies
// of whole records (record_types, record_type_lines, duplicates,
// duplicate_count, distinct) — need every record's document whole: its
// type read from its members, its content hashed. A fold whose rules read
// none of them (the contract's duplicate-id rule reads only the dataset
// keys) keeps only each record's line and key, and its documents are built
// with what the record rules read, as where nothing folds.

// contentMembers are the members of the dataset document the content facts
// make.
var contentMembers = []string{"record_types", "record_type_lines", "duplicates", "duplicate_count", "distinct"}

// contentMember names them all in the reads bookkeeping (tokenReads).
const contentMember = "content facts"

// yamlReadsContent reports whether a YAML file may read a content fact.
func yamlReadsContent(src []byte) bool {
	return slices.ContainsFunc(contentMembers, func(m string) bool { return yamlReads(src, m) })
}

// DatasetReadsContent reports whether a dataset rule that applies to files
// of the format under the profile may read the dataset document's content
// facts.
func (e *Engine) DatasetReadsContent(profile, format string) bool {
	profile = profileOf(profile)
	for _, r := range e.rules {
		if r.Scope != rule.ScopeDataset || e.disabled[r.ID] || !r.AppliesUnder(profile) ||
			len(r.Formats) > 0 && !slices.Contains(r.Formats, format) {
			continue
		}
		if e.contentReads.helper || e.contentReads.files[sourceFile(r.Source)] {
			return true
		}
	}
	return false
}
