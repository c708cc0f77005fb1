package regoc

import "github.com/open-policy-agent/opa/v1/ast"

// viewReads is how much of its operands a built-in reads. A built-in is
// OPA's code, which does not know views (views.go), so its operands are
// made plain; but a few read no more of an object operand than a view
// answers itself, and building a session's every entry and line because a
// rule asked one member of each (object.get(e, "uuid", null)) or its type
// (is_object(e.raw.message)) would cost more than the rest of the rules.
type viewReads uint8

const (
	// readsWhole: every operand is made plain.
	readsWhole viewReads = iota
	// readsLen: the operand's length, which Len answers (count).
	readsLen
	// readsType: the operand's type alone; a view is an ast.Object, and
	// an array holding views an *ast.Array (is_object, type_name…).
	readsType
	// readsMember: object.get, which reads its first operand by Get (a
	// path by Term.Get, member by member, which views answer too). The key
	// and the default are made plain.
	readsMember
)

// builtinReads names the built-ins that read less than their operands
// whole; any other reads them whole.
var builtinReads = map[string]viewReads{
	ast.Count.Name:           readsLen,
	ast.IsObject.Name:        readsType,
	ast.IsArray.Name:         readsType,
	ast.IsString.Name:        readsType,
	ast.IsNumber.Name:        readsType,
	ast.IsBoolean.Name:       readsType,
	ast.IsNull.Name:          readsType,
	ast.IsSet.Name:           readsType,
	ast.TypeNameBuiltin.Name: readsType,
	ast.ObjectGet.Name:       readsMember,
}

// plainOperands makes plain the operands of a built-in call that it reads
// whole (reads).
func plainOperands(reads viewReads, ops []*ast.Term) {
	switch reads {
	case readsLen, readsType:
		return
	case readsMember:
		for i := 1; i < len(ops); i++ {
			ops[i] = plain(ops[i])
		}
		return
	case readsWhole:
	}
	for i, t := range ops {
		ops[i] = plain(t)
	}
}
