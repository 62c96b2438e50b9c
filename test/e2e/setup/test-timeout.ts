// jest reads `testTimeout` only from the top-level configuration, never from a project's, so the
// e2e projects set theirs here: a run in real n8n (500 items, a poll, a restart) may take minutes.
jest.setTimeout(180_000);
