// Package regoc compiles the Rego packages written in a plain subset of Rego
// into closures that evaluate their record sets (deny, warn, info, actions)
// as OPA's topdown would, and faster. policy decides which packages run here
// (policy/regoc_program.go) and evaluates the rest, and any document the
// closures fail on, with topdown. See compile.go for the subset.
package regoc
