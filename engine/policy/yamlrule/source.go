package yamlrule

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// Source is one YAML rule file parsed once: its rules (CompileSource)
// and its rego_when entries (policy's compileGate) are both decoded from the one tree,
// where each used to parse the file again (a sixth of start-up went to
// parsing YAML).
type Source struct {
	File File
	root yaml.Node // the document node; zero for an empty file
	err  error     // the file does not parse
}

// ParseSource parses one YAML file once, for its rules and its rego_when
// entries.
func ParseSource(f File) *Source {
	s := &Source{File: f}
	// Into a yaml.Node nothing is decoded, so the only error is the
	// parser's, the one yaml.Unmarshal into a struct would return.
	s.err = yaml.Unmarshal(f.Source, &s.root)
	return s
}

// Root is the file's parsed tree (the document node; zero for an empty
// file), or the parser's error: policy's field analysis reads the rules'
// structure from it.
func (s *Source) Root() (*yaml.Node, error) { return &s.root, s.err }

// decode is yaml.Unmarshal of the file into v, as a *CompileError naming
// the file: Node.Decode runs the decoder Unmarshal runs after parsing, with
// the same type errors.
func (s *Source) Decode(v any) error {
	err := s.err
	if err == nil && s.root.Kind != 0 { // an empty file: Unmarshal decodes nothing, v stays zero
		err = s.root.Decode(v)
	}
	if err != nil {
		return &CompileError{Errors: []string{fmt.Sprintf("%s: %v", s.File.Name, err)}}
	}
	return nil
}
