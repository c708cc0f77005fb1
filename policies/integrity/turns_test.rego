package chatlint.integrity_test

# assistant-turn-aborted.

# with_stop(d, i, reason) is document d with the stop_reason of message i set, as the normalizer
# sets it on an assistant message.
with_stop(d, i, reason) := json.patch(d, [{"op": "add", "path": sprintf("/messages/%d/stop_reason", [i]), "value": reason}])

test_assistant_turn_aborted if {
	d := chat([user("x"), assistant(""), assistant("y"), calls([call("c1", "search")]), result("c1", "ok")])
	hits(with_stop(with_stop(d, 1, "aborted"), 2, "error"), "assistant-turn-aborted") == {["warning", 1]}
	hits(with_stop(d, 1, "error"), "assistant-turn-aborted") == {["warning", 1]}
	hits(with_stop(d, 1, "end_turn"), "assistant-turn-aborted") == set()
	hits(with_stop(d, 3, "aborted"), "assistant-turn-aborted") == set()
}

# The rule finds stop reasons by one reference over every message and keeps the assistant
# messages afterwards: a stop_reason on another role is not reported.
test_assistant_turn_aborted_only_on_assistant_messages if {
	d := chat([user(""), assistant("")])
	hits(with_stop(d, 0, "aborted"), "assistant-turn-aborted") == set()
	hits(with_stop(d, 1, "aborted"), "assistant-turn-aborted") == {["warning", 1]}
}
