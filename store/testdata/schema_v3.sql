-- Schema version 3 as released, with sample data. Frozen: never edit; it
-- proves that a version-3 data dir (messages stored as rendered text only)
-- is upgraded in place and its lines render as they were saved
-- (store/migrate_test.go).

-- migration 1
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

-- migration 2
CREATE INDEX runs_status ON runs(status, created_at, id);
CREATE INDEX runs_created ON runs(created_at, id);
CREATE INDEX runs_workflow_created ON runs(workflow_id, created_at, id);
CREATE INDEX artifacts_run ON artifacts(run_id);
CREATE INDEX artifacts_sha256 ON artifacts(sha256);
CREATE TABLE credentials (
	name       TEXT PRIMARY KEY,
	kind       TEXT NOT NULL,
	origin     TEXT NOT NULL,
	header     TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);

-- migration 3
ALTER TABLE node_runs ADD COLUMN branch TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN owner TEXT NOT NULL DEFAULT '';

INSERT INTO schema_migrations (version, applied_at) VALUES
	(1, 1764417600000000000), (2, 1764417600000000000), (3, 1764417600000000000);
INSERT INTO runs (id, workflow_id, workflow_name, workflow, inputs, state, status, interruption, reason, failed_node, created_at, ended_at, owner) VALUES
	('run-v3', 'wf1', 'Old', '{"name":"Old","state":null,"nodes":[{"id":"ra","type":"remote_agent"}],"edges":null}', '{}', 'null', 'succeeded', '', '', '', 1764417600000000000, 1764417602000000000, 'owner-gone');
INSERT INTO node_runs (run_id, node_id, type, status, inputs, outputs, error, started_at, ended_at, branch) VALUES
	('run-v3', 'ra', 'remote_agent', 'succeeded', 'null', '{}', '', 1764417600000000000, 1764417602000000000, '');
INSERT INTO messages (run_id, seq, node_id, time, text) VALUES
	('run-v3', 1, 'ra', 1764417600000000000, 'remote task: working (42%)'),
	('run-v3', 2, 'ra', 1764417601000000000, '远程任务：已完成'),
	('run-v3', 3, 'ra', 1764417602000000000, '');
PRAGMA user_version = 3;
