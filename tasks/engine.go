package tasks

// Engine marks a Def as one of the engine's own actions: actions that
// act on the run (its facts, its task list, its jobs, its connection to
// the host) rather than run a module on the host, so the engine
// (provision) carries them out itself and they have no constructor. The
// zero Engine is a module.
type Engine uint8

// The engine's own actions.
const (
	// NotEngine is a module, which the engine runs through its constructor.
	NotEngine Engine = iota
	// EngineSetup gathers the host's facts (setup).
	EngineSetup
	// EngineGatherFacts gathers the host's facts and marks them gathered
	// (gather_facts; the play's own fact gathering is one).
	EngineGatherFacts
	// EngineMeta changes the run's course (meta: flush_handlers,
	// end_play, ...).
	EngineMeta
	// EngineAsyncStatus reads an async job's state (async_status).
	EngineAsyncStatus
	// EngineWaitForConnection waits until the host can be logged in to
	// again (wait_for_connection).
	EngineWaitForConnection
	// EngineReboot reboots the host and waits until it is back (reboot).
	EngineReboot
)

// GathersFacts reports whether the action gathers the host's facts.
func (e Engine) GathersFacts() bool { return e == EngineSetup || e == EngineGatherFacts }

// Reconnects reports whether the action logs in to the host again.
func (e Engine) Reconnects() bool { return e == EngineWaitForConnection || e == EngineReboot }

// engineDefs are the engine's own actions: every registry knows them,
// whatever modules it holds (a Restrict too), as Ansible runs them
// whatever the module path.
var engineDefs = []Def{
	{Name: "setup", Engine: EngineSetup},
	{Name: "gather_facts", Engine: EngineGatherFacts},
	{Name: "meta", Engine: EngineMeta, RawParams: true, Words: []string{"flush_handlers", "refresh_inventory",
		"noop", "clear_facts", "clear_host_errors", "end_play", "end_host", "end_batch", "reset_connection", "role_complete"}},
	// Ansible's async_status action does not itself run under async.
	{Name: "async_status", Engine: EngineAsyncStatus, Traits: Traits{NoAsync: true}},
	{Name: "wait_for_connection", Engine: EngineWaitForConnection},
	{Name: "reboot", Engine: EngineReboot},
}

// engineDef returns the engine's own action of that canonical name.
func engineDef(name string) (Def, bool) {
	for _, d := range engineDefs {
		if d.Name == name {
			return d, true
		}
	}
	return Def{}, false
}

// EngineDef returns the engine's own action of kind e (a zero Def for
// NotEngine): the engine names the actions it makes itself (the play's
// fact gathering) through it.
func EngineDef(e Engine) Def {
	for _, d := range engineDefs {
		if d.Engine == e {
			return d
		}
	}
	return Def{}
}

// EngineDefs lists the engine's own actions.
func EngineDefs() []Def { return append([]Def(nil), engineDefs...) }
