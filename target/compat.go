package target

import "fmt"

// Compatible returns nil when a code object whose target is code can run
// on an agent whose target is agent, and otherwise an error wrapping
// ErrIncompatible that says why (spec/INVENTORY.md §3.4, §3.6; AMDGPUUsage
// "Target ID", "Generic Processor Versioning"):
//
//   - the triples must agree (a component left empty on one side is not
//     compared);
//   - the processors must be the same, or code's processor is generic,
//     agent's is one of its members, and code.GenericVersion is at least
//     the version in which that member was added;
//   - for every target-ID feature code sets On or Off, the agent must have
//     the same setting; Any matches either. A feature the agent's processor
//     does not support counts as off. The agent must say On or Off for
//     every feature code pins.
//
// V2/V3 code objects (Legacy IDs) are matched the same strict way: their
// features are always On or Off. The specs leave the loader's policy for
// xnack-on V3 code on an xnack-off device open (INVENTORY §13.1 #10); we
// refuse it, as ROCr does.
func Compatible(code, agent ID) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("target: code object %s cannot run on agent %s: %s: %w",
			code.String(), agent.String(), fmt.Sprintf(format, args...), ErrIncompatible)
	}
	if code.Processor == nil || agent.Processor == nil {
		return fmt.Errorf("target: Compatible needs two IDs with processors: %w", ErrIncompatible)
	}
	if agent.Processor.Generic {
		return fail("an agent's processor cannot be generic (%s)", agent.Processor.Name)
	}
	for _, c := range [...]struct{ what, a, b string }{
		{"architecture", code.Arch, agent.Arch},
		{"vendor", code.Vendor, agent.Vendor},
		{"OS", code.OS, agent.OS},
		{"environment", code.Env, agent.Env},
	} {
		if c.a != "" && c.b != "" && c.a != c.b {
			return fail("%s %q differs from %q", c.what, c.a, c.b)
		}
	}
	cp, ap := code.Processor, agent.Processor
	switch {
	case cp == ap:
	case cp.Generic:
		v, ok := cp.MemberVersion(ap)
		if !ok {
			return fail("%s is not a member of generic processor %s", ap.Name, cp.Name)
		}
		if code.GenericVersion <= 0 {
			return fail("generic code object has no generic version (EF_AMDGPU_GENERIC_VERSION_V must be 1..255)")
		}
		if code.GenericVersion < v {
			return fail("generic version %d is older than version %d, in which %s was added to %s",
				code.GenericVersion, v, ap.Name, cp.Name)
		}
	default:
		return fail("processor %s differs from %s", cp.Name, ap.Name)
	}
	for _, f := range cp.IDFeatures() {
		want := code.Features[f]
		if want == Any {
			continue
		}
		have := agent.Features[f]
		if !ap.Supports(f) {
			have = Off
		}
		if have == Any {
			return fail("agent does not say whether %s is on or off", f)
		}
		if have != want {
			return fail("code needs %s %s, agent has %s %s", f, want, f, have)
		}
	}
	return nil
}
