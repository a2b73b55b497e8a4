-- Schema version 1 as released, with sample data. Frozen: never edit; it
-- proves that a version-1 data dir is upgraded in place (store/migrate_test.go).
CREATE TABLE schema_migrations (
	version    INTEGER PRIMARY KEY,
	applied_at INTEGER NOT NULL
);
CREATE TABLE workflows (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	revision   INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE TABLE workflow_revisions (
	workflow_id TEXT NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
	revision    INTEGER NOT NULL,
	doc         TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	PRIMARY KEY (workflow_id, revision)
);
CREATE TABLE runs (
	id            TEXT PRIMARY KEY,
	workflow_id   TEXT NOT NULL,
	workflow_name TEXT NOT NULL,
	workflow      TEXT NOT NULL,
	inputs        TEXT NOT NULL,
	state         TEXT NOT NULL,
	status        TEXT NOT NULL,
	interruption  TEXT NOT NULL,
	reason        TEXT NOT NULL,
	failed_node   TEXT NOT NULL,
	created_at    INTEGER NOT NULL,
	ended_at      INTEGER NOT NULL
);
CREATE TABLE node_runs (
	run_id     TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	node_id    TEXT NOT NULL,
	type       TEXT NOT NULL,
	status     TEXT NOT NULL,
	inputs     TEXT NOT NULL,
	outputs    TEXT NOT NULL,
	error      TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	ended_at   INTEGER NOT NULL,
	PRIMARY KEY (run_id, node_id)
);
CREATE TABLE messages (
	run_id  TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	node_id TEXT NOT NULL,
	time    INTEGER NOT NULL,
	text    TEXT NOT NULL,
	PRIMARY KEY (run_id, seq)
);
CREATE TABLE decisions (
	run_id   TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	node_id  TEXT NOT NULL,
	approved INTEGER NOT NULL,
	text     TEXT NOT NULL,
	time     INTEGER NOT NULL,
	PRIMARY KEY (run_id, node_id)
);
CREATE TABLE remote_calls (
	run_id         TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	node_id        TEXT NOT NULL,
	call_key       TEXT NOT NULL,
	agent_url      TEXT NOT NULL,
	origin         TEXT NOT NULL,
	message_id     TEXT NOT NULL,
	task_id        TEXT NOT NULL,
	context_id     TEXT NOT NULL,
	remote_state   TEXT NOT NULL,
	status_text    TEXT NOT NULL,
	result         TEXT,
	cancel_outcome TEXT NOT NULL,
	cancel_text    TEXT NOT NULL,
	created_at     INTEGER NOT NULL,
	updated_at     INTEGER NOT NULL,
	ended          INTEGER NOT NULL,
	PRIMARY KEY (run_id, node_id, call_key)
);
CREATE TABLE artifacts (
	id          TEXT PRIMARY KEY,
	name        TEXT NOT NULL,
	original    TEXT NOT NULL,
	stored_name TEXT NOT NULL,
	media_type  TEXT NOT NULL,
	size        INTEGER NOT NULL,
	sha256      TEXT NOT NULL,
	run_id      TEXT NOT NULL,
	node_id     TEXT NOT NULL,
	created_at  INTEGER NOT NULL
);

INSERT INTO schema_migrations (version, applied_at) VALUES (1, 1764417600000000000);
INSERT INTO workflows (id, name, revision, updated_at) VALUES ('wf1', 'Old', 1, 1764417600000000000);
INSERT INTO workflow_revisions (workflow_id, revision, doc, created_at) VALUES
	('wf1', 1, '{"name":"Old","state":{"doc":"file"},"nodes":[{"id":"start","type":"start"}],"edges":[]}', 1764417600000000000);
INSERT INTO runs (id, workflow_id, workflow_name, workflow, inputs, state, status, interruption, reason, failed_node, created_at, ended_at) VALUES
	('run-old-1', 'wf1', 'Old', '{"name":"Old","state":null,"nodes":null,"edges":null}', '{"doc":"art-1"}', 'null', 'running', '', '', '', 1764417600000000000, 0),
	('run-old-2', 'wf1', 'Old', '{"name":"Old","state":null,"nodes":null,"edges":null}', '{}', 'null', 'failed', '', 'boom', 'ra', 1764417601000000000, 1764417602000000000);
INSERT INTO node_runs (run_id, node_id, type, status, inputs, outputs, error, started_at, ended_at) VALUES
	('run-old-1', 'ra', 'remote_agent', 'running', 'null', 'null', '', 1764417600000000000, 0);
INSERT INTO messages (run_id, seq, node_id, time, text) VALUES
	('run-old-1', 1, 'ra', 1764417600000000000, 'submitted');
INSERT INTO remote_calls (run_id, node_id, call_key, agent_url, origin, message_id, task_id, context_id, remote_state, status_text, result, cancel_outcome, cancel_text, created_at, updated_at, ended) VALUES
	('run-old-1', 'ra', '0', 'http://127.0.0.1:9/', 'http://127.0.0.1:9', 'm-1', 't-1', 'c-1', 'TASK_STATE_WORKING', 'working', NULL, '', '', 1764417600000000000, 1764417600000000000, 0);
INSERT INTO artifacts (id, name, original, stored_name, media_type, size, sha256, run_id, node_id, created_at) VALUES
	('art-1', 'a.txt', 'a.txt', 'ab/abcd', 'text/plain; charset=utf-8', 4, 'abcd', '', '', 1764417600000000000);
PRAGMA user_version = 1;
