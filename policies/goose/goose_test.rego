package chatlint.goose_test

import data.chatlint.goose

# doc(messages) is the document of a chat record: the raw messages, and the normalized ones as far
# as the rules read them (their pointers).
doc(messages) := {"raw": {"messages": messages}, "messages": paths(messages)}

paths(messages) := [{"path": sprintf("/messages/%d", [i])} | some i, _ in messages]

ops(res) := {[a.op, object.get(a, "target", ""), a.rule] | some a in res}

test_info_message_dropped if {
	res := goose.actions with input as doc([
		{"role": "system", "content": "Be brief."},
		{"role": "user", "content": "  <info-msg>\nDatetime: 2025-01-01\n</info-msg>\n "},
		{"role": "user", "content": [{"type": "text", "text": "<info-msg>a"}, {"type": "image_url"}, {"type": "text", "text": "b</info-msg>"}]},
	])
	ops(res) == {["drop_message", "/messages/1", "goose-info-message"], ["drop_message", "/messages/2", "goose-info-message"]}
}

test_info_message_needs_whole_text_and_user if {
	res := goose.actions with input as doc([
		{"role": "user", "content": "see <info-msg>x</info-msg>"},
		{"role": "assistant", "content": "<info-msg>x</info-msg>"},
		{"role": "user", "content": "<info-msg>x</info-msg> trailing"},
		{"role": "user"},
	])
	count(res) == 0
}

test_info_message_unicode_space if {
	res := goose.actions with input as doc([{"role": "user", "content": "\u00a0<info-msg>x</info-msg>\u2003"}])
	ops(res) == {["drop_message", "/messages/0", "goose-info-message"]}
}

test_system_prompt_replaced if {
	res := goose.actions with input as doc([
		{"role": "system", "content": "You are a General-Purpose\n AI  agent called Goose, created by Block."},
		{"role": "system", "content": "You are a helpful assistant."},
		{"role": "user", "content": "general-purpose AI agent called goose"},
	])
	res == {{
		"op": "set_content", "target": "/messages/0", "content": "You are a general-purpose AI agent",
		"rule": "goose-system-prompt", "reason": "system message is goose's built-in prompt",
	}}
}

test_empty_assistant_before_assistant if {
	res := goose.actions with input as doc([
		{"role": "user", "content": "hi"},
		{"role": "assistant", "content": " \n"},
		{"role": "assistant", "content": []},
		{"role": "assistant", "content": "Hello"},
	])
	ops(res) == {["drop_message", "/messages/1", "goose-empty-assistant"], ["drop_message", "/messages/2", "goose-empty-assistant"]}
}

test_empty_assistant_kept if {
	res := goose.actions with input as doc([
		{"role": "assistant"}, # no content: no text, kept
		{"role": "assistant", "content": "", "tool_calls": [{"id": "c1"}]},
		{"role": "assistant", "content": "", "tool_call_id": "x"},
		{"role": "assistant", "content": ""}, # followed by a user message
		{"role": "user", "content": "ok"},
		{"role": "assistant", "content": ""}, # last message
	])
	count(res) == 0
}

test_empty_assistant_sees_through_info_drop if {
	res := goose.actions with input as doc([
		{"role": "assistant", "content": ""},
		{"role": "user", "content": "<info-msg>x</info-msg>"},
		{"role": "assistant", "content": "Hi"},
	])
	ops(res) == {["drop_message", "/messages/0", "goose-empty-assistant"], ["drop_message", "/messages/1", "goose-info-message"]}
}

title_doc(reply) := {"raw": {
	"messages": [
		{"role": "system", "content": "  Reply with only a description in four words or less."},
		{"role": "user", "content": [{"type": "text", "text": "Here are the first few user messages: fix the build"}]},
	],
	"response": {"id": "r1", "choices": [{"index": 0, "message": reply}]},
}}

test_title_request_dropped if {
	res := goose.actions with input as title_doc({"role": "assistant", "content": "Fixing the  build\n"})
	ops(res) == {["drop_record", "", "goose-title-request"]}
}

test_title_request_word_limits if {
	count(goose.actions) == 0 with input as title_doc({"role": "assistant", "content": "one two three four five six seven"})
	count(goose.actions) == 0 with input as title_doc({"role": "assistant", "content": "  "})
	count(goose.actions) == 0 with input as title_doc({"role": "user", "content": "Fix build"})
	count(goose.actions) == 0 with input as title_doc({"role": "assistant"})
	ops(goose.actions) == {["drop_record", "", "goose-title-request"]} with input as title_doc({"role": "assistant", "content": "a b c d e f"})
}

test_title_request_after_info_drop if {
	messages := [
		{"role": "user", "content": "<info-msg>x</info-msg>"},
		{"role": "system", "content": "Reply with only a description in four words or less"},
		{"role": "user", "content": "Here are the first few user messages: hi"},
	]
	res := goose.actions with input as {"messages": paths(messages), "raw": {
		"messages": messages,
		"response": {"id": "r1", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Greeting"}}]},
	}}
	ops(res) == {["drop_message", "/messages/0", "goose-info-message"], ["drop_record", "", "goose-title-request"]}
}

test_title_request_needs_response if {
	count(goose.actions) == 0 with input as {"raw": {"messages": title_doc({}).raw.messages}}
}

# A user message of two Anthropic tool_result blocks is two normalized (tool) messages: the
# <info-msg> after it is raw message 1 but normalized message 2, which the action names.
test_target_after_split_message if {
	res := goose.actions with input as {
		"raw": {"messages": [
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "a", "content": "1"},
				{"type": "tool_result", "tool_use_id": "b", "content": "2"},
			]},
			{"role": "user", "content": "<info-msg>x</info-msg>"},
		]},
		"messages": [{"path": "/messages/0/content/0"}, {"path": "/messages/0/content/1"}, {"path": "/messages/1"}],
	}
	ops(res) == {["drop_message", "/messages/2", "goose-info-message"]}
}
