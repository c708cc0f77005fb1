package builtins

import (
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
)

// Builtins a pack may not call: packs are semi-trusted, and a linter must not
// reach the network or leak the environment. Every builtin OPA marks
// non-deterministic (time.now_ns, rand.intn, uuid.rfc4122, the JWT and JSON
// Schema builtins that may fetch keys or $refs) is denied too: a check must
// give the same findings on the same data. The two x509 verifiers are not
// marked so, yet check a certificate's validity against the wall clock
// (with_options too, unless given a time): the same pack would judge the
// same data differently from one day to the next. docs/ci.md records the
// audit of every builtin left allowed.
var deniedBuiltins = []string{"http.send", "net.lookup_ip_addr", "net.cidr_expand", "opa.runtime", "trace", "rego.parse_module", "providers.aws.sign_req",
	"crypto.x509.parse_and_verify_certificates", "crypto.x509.parse_and_verify_certificates_with_options"}

// Capabilities returns the OPA capabilities packs are compiled with.
func Capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	caps.Builtins = slices.DeleteFunc(caps.Builtins, func(b *ast.Builtin) bool {
		return b.Nondeterministic || slices.Contains(deniedBuiltins, b.Name)
	})
	caps.AllowNet = []string{}
	return caps
}
