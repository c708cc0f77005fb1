package builtins

import (
	"slices"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// DeniedBuiltins lists, sorted, the OPA builtins packs may not call: those
// of this OPA version that Capabilities leaves out. docs/ci.md's sandbox
// list is generated from it, so the docs and the sandbox cannot disagree.
func DeniedBuiltins() []string {
	allowed := map[string]bool{}
	for _, b := range Capabilities().Builtins {
		allowed[b.Name] = true
	}
	var out []string
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		if !allowed[b.Name] && !b.IsDeprecated() {
			out = append(out, b.Name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// OPA's time builtins read the process's local zone: time.date, time.clock,
// time.weekday, time.format and time.diff given the zone "Local", and
// time.parse_ns, which resolves a zone abbreviation such as "CET" by the
// local zone's offsets. That zone comes from TZ and /etc/localtime, so the
// same pack would judge the same data differently on two machines. The
// local zone is UTC for the whole process (chatlint itself names no local
// time: backups are stamped in UTC).
func init() { time.Local = time.UTC }
