package fix

import (
	"fmt"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonv"
)

// layout returns how the document's format writes its messages, nil for the
// OpenAI {role, content} shape.
func (a *applier) layout() *document.Layout {
	if ad := document.Lookup(a.doc.Format); ad != nil {
		return ad.Layout
	}
	return nil
}

// contentKey is the member set_content replaces in a message.
func (a *applier) contentKey() string {
	if l := a.layout(); l != nil && l.ContentKey != "" {
		return l.ContentKey
	}
	return "content"
}

// toLayout writes what an operation puts into the record in the format's
// own shape: the content of set_content, the message of insert_message. A
// format that cannot hold it fails the operation, and the record is left as
// it was.
func (a *applier) toLayout(o *op) error {
	if o.Op == OpSetContent {
		o.member = a.contentKey()
	}
	l := a.layout()
	if l == nil {
		return nil
	}
	var err error
	switch {
	case o.Op == OpSetContent:
		err = a.placeContent(o, l)
	case o.Op == OpInsert && l.Message != nil:
		o.message, err = l.Message(o.message)
	}
	if err != nil {
		return fmt.Errorf("rule %s: %s %s: in a %s file: %v", o.Rule, o.Op, o.Target, a.doc.Format, err)
	}
	return nil
}

// placeContent sets the member set_content replaces and its value: the
// layout's ElementContent decides for an element that keeps its content
// elsewhere (a Gemini functionResponse part), Content for a message.
func (a *applier) placeContent(o *op, l *document.Layout) error {
	if l.ElementContent != nil {
		m := a.ms[o.msg]
		if _, v, err := a.at(m.line, m.path); err == nil {
			if obj, ok := v.(*jsonv.Object); ok {
				key, val, ok, err := l.ElementContent(obj, o.content)
				if err != nil || ok {
					o.member, o.content = key, val
					return err
				}
			}
		}
	}
	if l.Content == nil {
		return nil
	}
	var err error
	o.content, err = l.Content(o.content)
	return err
}
