// Package builtins holds the custom Rego functions packs may call
// (chatlint.json_payload, chatlint.truthy_keys, chatlint.schema_errors, the
// token and date-time checks, ...), registered with OPA when the package is
// loaded, and the sandbox packs are compiled in (Capabilities). The YAML
// rules read values the same way through the exported helpers (Truthy,
// JSONText, Schemas), so both kinds of rule agree on what a value means.
package builtins
