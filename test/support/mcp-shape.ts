// The server flags of the tests written against the full tool set and JSON answers: they test
// behaviour (IDs, verdicts, security), not the default shape, which test/tools/toolset.test.ts pins.
export const LEGACY_SHAPE = ['--tools', 'all', '--answers', 'json'];
