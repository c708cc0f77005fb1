package main

// Static vocabulary for the generator. Everything here is fixed data: the
// output depends on it, so changing a list changes every generated file.
//
// The lists deliberately avoid words such as "error", "failed", "timeout" or
// "exception" so that clean records never look like flagged tool results, and
// they contain no e-mail addresses, phone numbers or key-like strings.

// words is the general vocabulary used for prose.
var words = []string{
	"the", "a", "an", "and", "or", "but", "if", "then", "so", "because", "when", "while",
	"of", "to", "in", "on", "at", "for", "with", "from", "by", "about", "into", "over",
	"after", "before", "between", "under", "through", "without", "within", "around",
	"is", "are", "was", "were", "be", "been", "has", "have", "had", "do", "does", "did",
	"can", "could", "should", "would", "will", "may", "might", "must", "need", "want",
	"it", "this", "that", "these", "those", "there", "here", "we", "you", "they", "I",
	"our", "your", "their", "its", "my", "some", "any", "each", "every", "all", "most",
	"more", "less", "many", "few", "other", "another", "same", "different", "new", "old",
	"first", "last", "next", "previous", "final", "current", "recent", "early", "late",
	"good", "better", "best", "simple", "clear", "quick", "slow", "fast", "large", "small",
	"short", "long", "high", "low", "main", "common", "useful", "likely", "possible",
	"important", "specific", "general", "correct", "exact", "similar", "separate",
	"make", "take", "give", "get", "set", "put", "use", "find", "show", "tell", "ask",
	"check", "try", "keep", "start", "stop", "open", "close", "run", "build", "write",
	"read", "send", "receive", "move", "change", "update", "add", "remove", "create",
	"delete", "replace", "return", "call", "load", "save", "store", "fetch", "parse",
	"format", "filter", "sort", "merge", "split", "join", "count", "compare", "match",
	"explain", "describe", "summarize", "review", "confirm", "verify", "compute",
	"schedule", "deploy", "install", "configure", "enable", "disable", "restart",
	"analyze", "estimate", "improve", "reduce", "increase", "handle", "support",
	"time", "day", "week", "month", "year", "hour", "minute", "morning", "evening",
	"people", "user", "customer", "team", "manager", "engineer", "student", "friend",
	"order", "account", "invoice", "payment", "refund", "shipment", "package", "delivery",
	"product", "price", "discount", "subscription", "plan", "feature", "release",
	"file", "folder", "directory", "path", "line", "column", "table", "row", "field",
	"record", "entry", "list", "item", "value", "key", "name", "label", "title", "note",
	"report", "summary", "document", "page", "section", "chapter", "paragraph", "draft",
	"server", "client", "service", "request", "response", "query", "result", "output",
	"input", "config", "setting", "option", "parameter", "argument", "variable",
	"function", "method", "class", "module", "library", "package", "dependency",
	"database", "index", "schema", "cache", "queue", "worker", "job", "task", "process",
	"thread", "memory", "disk", "network", "latency", "throughput", "traffic", "load",
	"test", "benchmark", "metric", "dashboard", "alert", "log", "trace", "event",
	"branch", "commit", "merge", "review", "patch", "version", "build", "pipeline",
	"project", "repository", "workspace", "environment", "staging", "production",
	"weather", "forecast", "temperature", "rain", "wind", "city", "country", "region",
	"flight", "hotel", "trip", "ticket", "booking", "meeting", "calendar", "invite",
	"recipe", "ingredient", "kitchen", "dinner", "lunch", "breakfast", "coffee",
	"market", "stock", "share", "revenue", "budget", "cost", "quarter", "forecast",
	"question", "answer", "idea", "reason", "example", "detail", "problem", "issue",
	"solution", "approach", "step", "way", "part", "point", "case", "fact", "number",
	"amount", "level", "rate", "size", "limit", "range", "total", "average", "percent",
	"really", "quite", "very", "just", "also", "still", "only", "even", "already",
	"again", "probably", "actually", "usually", "often", "sometimes", "never", "always",
	"now", "today", "tomorrow", "yesterday", "soon", "later", "instead", "together",
	"carefully", "directly", "automatically", "manually", "locally", "remotely",
	"JSON", "YAML", "CSV", "SQL", "HTTP", "API", "CLI", "Docker", "Kubernetes", "Python",
	"Go", "Rust", "TypeScript", "Postgres", "Redis", "Kafka", "Linux", "GitHub", "S3",
}

// rareWords are mixed in occasionally so the output contains multi-byte
// UTF-8 (accents, CJK, emoji outside the BMP).
var rareWords = []string{
	"café", "naïve", "résumé", "déjà vu", "façade", "Zürich", "São Paulo", "señor",
	"über", "coöperate", "Ångström", "東京", "データ", "北京", "서울", "Москва", "→",
	"…", "“quoted”", "€42", "±5%", "🙂", "🚀", "✅", "👍",
}

// firstNames and lastNames build person-like names (no contact details).
var firstNames = []string{
	"Alice", "Bob", "Carol", "David", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
	"Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter",
	"Yasmin", "Zoe", "Mateo", "Priya", "Kenji", "Fatima", "Lars", "Amara", "Diego",
}

var lastNames = []string{
	"Smith", "Johnson", "Nguyen", "Garcia", "Müller", "Rossi", "Kowalski", "Tanaka",
	"Okafor", "Silva", "Novak", "Larsen", "Patel", "Kim", "Dubois", "Haddad", "Moreau",
}

var cities = []string{
	"Berlin", "Paris", "Lisbon", "Madrid", "Tokyo", "Osaka", "Seattle", "Austin",
	"Toronto", "Nairobi", "Sydney", "Oslo", "Prague", "Chicago", "Denver", "Zürich",
}

var fileDirs = []string{
	"src", "cmd/server", "internal/api", "pkg/store", "web/app", "scripts", "docs",
	"config", "tests", "lib", "services/billing", "services/auth", "tools",
}

var fileExts = []string{".go", ".py", ".ts", ".md", ".yaml", ".json", ".sql", ".txt", ".sh"}

var shellCommands = []string{
	`ls -la %s`, `grep -rn "%s" .`, `cat %s`, `git log --oneline -n 20`, `go test ./...`,
	`python -m pytest -q`, `wc -l %s`, `du -sh %s`, `find . -name "*%s*"`,
	`kubectl get pods -n %s`, `docker ps --format '{{.Names}}'`, `head -n 40 %s`,
	`sed -n '1,80p' %s`, `awk -F, '{print $1}' %s`, `echo "done\n" >> %s`,
}

var sqlTables = []string{"orders", "customers", "invoices", "events", "users", "shipments", "products"}

var sqlColumns = []string{"id", "name", "status", "created_at", "total", "region", "owner_id", "updated_at"}

var codeSnippets = []string{
	"func main() {\n\tname := os.Getenv(\"USER\")\n\tfmt.Printf(\"hello, %s\\n\", name)\n}",
	"def load(path):\n    with open(path) as f:\n        return [line.rstrip(\"\\n\") for line in f]",
	"const rows = data.filter((r) => r.status === \"open\");\nconsole.log(`found ${rows.length} rows`);",
	"SELECT id, name, total\nFROM orders\nWHERE status = 'open'\nORDER BY created_at DESC\nLIMIT 20;",
	"for f in *.log; do\n\tgzip -9 \"$f\"\ndone",
	"if err != nil {\n\treturn fmt.Errorf(\"load %q: %w\", path, err)\n}",
	"{\n  \"name\": \"demo\",\n  \"version\": \"1.2.3\",\n  \"private\": true\n}",
	"re := regexp.MustCompile(`^\\d{4}-\\d{2}-\\d{2}$`)\nok := re.MatchString(s)",
	"path = \"C:\\\\Users\\\\demo\\\\notes.txt\"\nprint(path.split(\"\\\\\"))",
}

var systemPrompts = []string{
	"You are a helpful assistant.",
	"You are a careful coding assistant. Use the available tools to inspect the repository before answering, and keep answers short.",
	"You are a customer support agent for an online store. Look up orders with the tools provided and never guess order details.",
	"You are a research assistant. Search before answering factual questions and cite what you found.",
	"You are an operations assistant with shell access. Prefer read-only commands and explain what each command does.",
	"You are a friendly travel planner. Ask clarifying questions when the dates or budget are unclear.",
}

var assistantToolIntros = []string{
	"Let me check that.",
	"I'll look that up.",
	"One moment while I fetch the details.",
	"Let me run a quick search first.",
	"I'll inspect the files to be sure.",
	"Checking now.",
}

var models = []string{"gpt-4o", "gpt-4o", "gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "o3-mini"}

// toolCatalog is every function the generator knows. Tool sets (below) pick
// from it by name.
var toolCatalog = []toolDef{
	{name: "search_web", desc: "Search the web and return the top results.", params: []param{
		{name: "query", typ: "string", desc: "The search query.", kind: argQuery, required: true},
		{name: "max_results", typ: "integer", desc: "How many results to return (1-20).", kind: argInt},
	}},
	{name: "read_file", desc: "Read a text file from the workspace.", params: []param{
		{name: "path", typ: "string", desc: "Path relative to the workspace root.", kind: argPath, required: true},
		{name: "start_line", typ: "integer", desc: "First line to read, 1-based.", kind: argInt},
		{name: "end_line", typ: "integer", desc: "Last line to read, inclusive.", kind: argInt},
	}},
	{name: "write_file", desc: "Create or overwrite a file in the workspace.", params: []param{
		{name: "path", typ: "string", desc: "Path relative to the workspace root.", kind: argPath, required: true},
		{name: "content", typ: "string", desc: "The full new content of the file.", kind: argCode, required: true},
	}},
	{name: "list_directory", desc: "List the entries of a directory.", params: []param{
		{name: "path", typ: "string", desc: "Directory path.", kind: argPath, required: true},
		{name: "recursive", typ: "boolean", desc: "Whether to descend into subdirectories.", kind: argBool},
	}},
	{name: "run_shell", desc: "Run a shell command in the sandbox and return its output.", params: []param{
		{name: "command", typ: "string", desc: "The command line to execute.", kind: argCommand, required: true},
		{name: "timeout_seconds", typ: "integer", desc: "Maximum run time in seconds.", kind: argInt},
		{name: "cwd", typ: "string", desc: "Working directory.", kind: argPath},
	}},
	{name: "query_database", desc: "Run a read-only SQL query against the analytics database.", params: []param{
		{name: "sql", typ: "string", desc: "A single SELECT statement.", kind: argSQL, required: true},
		{name: "database", typ: "string", desc: "Database name.", kind: argEnum, enum: []string{"analytics", "billing", "inventory"}},
		{name: "limit", typ: "integer", desc: "Maximum number of rows.", kind: argInt},
	}},
	{name: "lookup_order", desc: "Look up an order by its identifier.", params: []param{
		{name: "order_id", typ: "string", desc: "The order identifier, for example ORD-12345.", kind: argID, required: true},
		{name: "include_history", typ: "boolean", desc: "Include the status history.", kind: argBool},
	}},
	{name: "create_ticket", desc: "Open a ticket in the issue tracker.", params: []param{
		{name: "title", typ: "string", desc: "Short summary.", kind: argText, required: true},
		{name: "description", typ: "string", desc: "Full description in Markdown.", kind: argText, required: true},
		{name: "priority", typ: "string", desc: "Ticket priority.", kind: argEnum, enum: []string{"low", "medium", "high", "urgent"}},
		{name: "labels", typ: "array", desc: "Labels to attach.", kind: argStrList},
	}},
	{name: "get_weather", desc: "Get the current weather and a short forecast for a city.", params: []param{
		{name: "location", typ: "string", desc: "City name, optionally with country.", kind: argCity, required: true},
		{name: "unit", typ: "string", desc: "Temperature unit.", kind: argEnum, enum: []string{"celsius", "fahrenheit"}},
	}},
	{name: "translate_text", desc: "Translate text into another language.", params: []param{
		{name: "text", typ: "string", desc: "The text to translate.", kind: argText, required: true},
		{name: "target_language", typ: "string", desc: "ISO 639-1 code of the target language.", kind: argEnum, enum: []string{"de", "fr", "es", "ja", "pt", "ko"}, required: true},
	}},
	{name: "get_stock_price", desc: "Get the latest price for a ticker symbol.", params: []param{
		{name: "symbol", typ: "string", desc: "Ticker symbol.", kind: argEnum, enum: []string{"ACME", "GLOBX", "INITech", "UMBR", "WAYN"}, required: true},
		{name: "exchange", typ: "string", desc: "Exchange code.", kind: argEnum, enum: []string{"NYSE", "NASDAQ", "LSE", "XETRA"}},
	}},
	{name: "search_documents", desc: "Semantic search over the internal knowledge base.", params: []param{
		{name: "query", typ: "string", desc: "What to look for.", kind: argQuery, required: true},
		{name: "collection", typ: "string", desc: "Which collection to search.", kind: argEnum, enum: []string{"handbook", "runbooks", "design-docs", "faq"}},
		{name: "top_k", typ: "integer", desc: "Number of passages to return.", kind: argInt},
	}},
	{name: "get_user_profile", desc: "Fetch a user's profile and preferences.", params: []param{
		{name: "user_id", typ: "string", desc: "The user identifier.", kind: argID, required: true},
	}},
	{name: "send_message", desc: "Post a message to a team chat channel.", params: []param{
		{name: "channel", typ: "string", desc: "Channel name without the leading #.", kind: argQuery, required: true},
		{name: "text", typ: "string", desc: "Message text.", kind: argText, required: true},
	}},
	{name: "create_calendar_event", desc: "Create a calendar event and invite attendees.", params: []param{
		{name: "title", typ: "string", desc: "Event title.", kind: argText, required: true},
		{name: "start_time", typ: "string", desc: "Start time in RFC 3339.", kind: argTime, required: true},
		{name: "duration_minutes", typ: "integer", desc: "Length of the event.", kind: argInt},
		{name: "attendees", typ: "array", desc: "Names of the people to invite.", kind: argNameList},
	}},
	{name: "http_request", desc: "Send an HTTP request to an allow-listed internal service.", params: []param{
		{name: "method", typ: "string", desc: "HTTP method.", kind: argEnum, enum: []string{"GET", "POST", "PUT", "DELETE"}, required: true},
		{name: "url", typ: "string", desc: "Absolute URL.", kind: argURL, required: true},
		{name: "body", typ: "string", desc: "Request body, if any.", kind: argText},
	}},
}

// toolSetNames lists the tool sets. The first is shared by about 90% of the
// records; the others are the variants.
var toolSetNames = [][]string{
	{"search_web", "read_file", "run_shell", "query_database", "lookup_order"},
	{"get_weather", "search_web", "translate_text", "get_stock_price"},
	{"read_file", "write_file", "list_directory", "run_shell", "search_documents"},
	{"search_web", "read_file", "run_shell", "query_database", "lookup_order", "create_ticket", "http_request"},
	{"search_documents", "get_user_profile", "lookup_order", "create_ticket", "send_message", "create_calendar_event", "http_request", "get_weather"},
}
