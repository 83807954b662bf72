#!/usr/bin/env python3
"""Writes the conformance agent's generated cases (C) from two models.

usage: gen_cases.py OWN.json ORACLE.json OUT.c [AREAS.txt]

OWN.json is `jvmtigen model` of the spec the host runs (spec/jvmti.xml),
ORACLE.json that of the spec the reference VM implements (JDK 17's
jvmti.xml for the installed HotSpot). A case is generated only from facts
both models state alike: a function the oracle's spec lacks is left out, and
so is a case whose function differs between the two in a fact the case rests
on (phase, thread rule, capabilities, or a parameter's kind, nullability or
minimum). A comment at the top of OUT.c lists what was left out and why.
AREAS.txt gets "FUNCTION<tab>CATEGORY" for every function of OWN.json (its
category's label in the spec): compare.py reports per area with it.

The cases, each one call whose answer the spec decides before any
VM-specific work is done:

  phase-onload|start|live|dead.F  F called in a phase it is not allowed in
  cap.F                           F without one of its required capabilities
  null[-onload].F.p               NULL for p, a pointer that may not be NULL
  min.F.p                         p one below its minimum
  depth.F.p                       a negative frame depth
  unattached.F                    F from a thread the VM does not know
  monitor-null|monitor-bogus.F    a NULL or a made-up raw monitor
  bad-thread.F.p                  an object that is not a thread (java/lang/Thread's class)
  unstarted.F.p                   a thread object never started
  bad-class.F.p                   an object that is not a class (the thread)
  null-object|null-method|null-field|null-group.F.p
                                  NULL for a jobject, jmethodID, jfieldID, jthreadGroup
  bad-enum.F.p                    a number no constant of the enum has
Each handle case is made only where both specs list the error it must give
(INVALID_THREAD, THREAD_NOT_ALIVE, INVALID_CLASS, INVALID_OBJECT,
INVALID_METHODID, INVALID_FIELDID, INVALID_THREAD_GROUP, ILLEGAL_ARGUMENT)
for that parameter. A handle is never made up: a VM need not check a
garbage handle (HotSpot crashes on some), only a wrong or NULL one.

Every other argument is valid: the calling thread, java/lang/Thread, its
getName method and name field, a live raw monitor, zeroed buffers of ample
size, so that the checked argument is the only thing wrong.
"""
import json
import sys

POINTER_KINDS = {"ptrtype", "outptr", "outbuf", "allocfieldbuf", "inptr", "inbuf",
                 "vmbuf", "allocbuf", "agentbuf", "allocallocbuf"}
INT_KINDS = {"jint", "jlong", "jlocation", "jboolean", "jchar", "jfloat", "jdouble",
             "jframeID", "size_t", "uchar", "jshort", "jbyte"}

# The phases each `phase` attribute allows (absent: live only).
PHASES = {
    None: {"live"}, "live": {"live"}, "start": {"start", "live"},
    "onload": {"onload", "live"}, "onloadOnly": {"onload"},
    "any": {"onload", "start", "live", "dead"},
}
STAGES = ["onload", "start", "live", "dead"]
C_STAGE = {"onload": "CONF_ONLOAD", "start": "CONF_START", "live": "CONF_LIVE",
           "unattached": "CONF_UNATTACHED", "dead": "CONF_DEAD"}


def in_signature(p):
    """A method's class parameter is in the spec but not in the C call."""
    return not (p["type"]["kind"] == "jclass" and p["type"]["method"])


def params_of(f):
    return [p for p in f["parameters"] if in_signature(p)]


def words(attr):
    return set((attr or "").split())


def param_facts(p):
    """What a case relies on about a parameter (not how the VM converts it)."""
    t = p["type"]
    e = t["elem"] or {}
    return (p["name"], t["kind"], t["nullok"], "nonullcheck" in words(t["impl"]), t["min"],
            e.get("kind"), e.get("name"), t["null"])


def function_facts(f):
    return (f["phase"], f["callbacksafe"], tuple(f["capabilities"]["required"]),
            tuple(param_facts(p) for p in params_of(f)))


def needs_of(t):
    """The handle flags a valid value of type t uses."""
    k = t["kind"]
    if k == "ptrtype" and t["elem"]:
        k = t["elem"]["kind"]
    return {"jthread": "CONF_NEED_THREAD", "jclass": "CONF_NEED_CLASS",
            "jmethodID": "CONF_NEED_METHOD", "jfieldID": "CONF_NEED_FIELD",
            "jobject": "CONF_NEED_OBJECT", "jrawMonitorID": "CONF_NEED_MONITOR"}.get(k)


class Gen:
    def __init__(self, own, oracle):
        self.own, self.oracle = own, oracle
        self.groups = {g["id"]: g for g in own["constant_groups"]}
        self.cases = []     # (id, stage, env, needs, caps, body)
        self.left_out = []  # (what, why)

    # ---- argument values ----
    def valid(self, t, i):
        """A C expression for a valid value of type t, parameter index i."""
        k = t["kind"]
        if k == "ptrtype":
            e = t["elem"]
            if e["kind"] == "jobject":
                return "c->object"
            if e["kind"] == "jclass":
                return "c->klass"
            if e["kind"] == "jthread":
                return "c->thread"
            if e["kind"] == "struct":  # a function pointer typedef
                return "(%s)conf_dummy" % e["name"]
            return "c->scratch[%d]" % i
        if k in POINTER_KINDS:
            return "c->scratch[%d]" % i
        if k in INT_KINDS:
            m = t["min"]
            return str(m) if m is not None and m > 0 else "0"
        if k == "enum":
            g = self.groups.get(t["name"])
            for c in (g or {}).get("constants", []):
                if c["value"] is not None:
                    return "(%s)%d" % (t["name"], c["value"])
            return "(%s)0" % t["name"]
        return {"jthread": "c->thread", "jclass": "c->klass", "jmethodID": "c->method",
                "jfieldID": "c->field", "jobject": "c->object", "jthreadGroup": "NULL",
                "jrawMonitorID": "c->monitor", "jvalue": "c->value"}[k]

    @staticmethod
    def zero(t):
        k = t["kind"]
        if k == "jvalue":
            return "c->value"
        if k == "enum":
            return "(%s)0" % t["name"]
        if k in INT_KINDS:
            return "0"
        return "NULL"

    def add(self, cid, stage, env, f, args, needs, past_capabilities=True):
        """past_capabilities: the case is about a check after the capability
        check, so it needs the function's capabilities (else it is SKIP)."""
        caps = f["capabilities"]["required"] if past_capabilities else []
        body = "(*env)->%s(env%s)" % (f["id"], "".join(", " + a for a in args))
        self.cases.append((cid, stage, env, sorted(set(n for n in needs if n)), caps, body))

    def args_with(self, f, k, value):
        """Valid arguments with parameter k replaced by value."""
        args, needs = [], []
        for i, p in enumerate(params_of(f)):
            if i == k:
                args.append(value)
            else:
                args.append(self.valid(p["type"], i))
                needs.append(needs_of(p["type"]))
        return args, needs

    # ---- the batteries ----
    def generate(self):
        oracle = {f["id"]: f for f in self.oracle["functions"]}
        for f in self.own["functions"]:
            o = oracle.get(f["id"])
            if f["hide"]:
                continue
            if o is None:
                self.left_out.append((f["id"], "not in the oracle's spec (since %s)" % f["since"]))
                continue
            if any(p["type"]["kind"] == "varargs" for p in f["parameters"]):
                self.left_out.append((f["id"], "varargs (hand-written cases in agent.c)"))
                continue
            before = len(self.cases)
            self.function(f, o)
            if len(self.cases) == before:
                self.left_out.append((f["id"], "no argument the spec has it check and any phase "
                                      "(hand-written cases in agent.c)"))

    def function(self, f, o):
        ff, of = function_facts(f), function_facts(o)
        fid = f["id"]
        allowed = PHASES[f["phase"]]
        zeros = [self.zero(p["type"]) for p in params_of(f)]
        same_rules = ff[:3] == of[:3]
        if not same_rules:
            self.left_out.append((fid, "phase, thread rule or capabilities differ"))
            return

        # Phases it is not allowed in: the phase check comes first.
        for stage in STAGES:
            if stage not in allowed:
                self.add("phase-%s.%s" % (stage, fid), C_STAGE[stage], "CONF_FULL", f, zeros, [],
                         past_capabilities=False)

        home = "live" if "live" in allowed else "onload"
        # A required capability missing: checked before any parameter.
        if f["capabilities"]["required"]:
            self.add("cap.%s" % fid, C_STAGE[home], "CONF_BARE", f, zeros, [],
                     past_capabilities=False)

        # A thread the VM does not know, for functions that need a Java one.
        if allowed <= {"start", "live"} and not f["callbacksafe"]:
            self.add("unattached.%s" % fid, "CONF_UNATTACHED", "CONF_FULL", f, zeros, [],
                     past_capabilities=False)

        self.handles(f, o, fid, home, ff, of)

        same_params = {}
        for k, (a, b) in enumerate(zip(ff[3], of[3])):
            same_params[k] = a == b and len(ff[3]) == len(of[3])
        # The parameters before k are checked first: they must agree too.
        for k, p in enumerate(params_of(f)):
            t = p["type"]
            kind = t["kind"]
            agree = all(same_params[j] for j in range(k + 1))
            label = "%s.%s" % (fid, p["name"])
            checked_null = (kind in POINTER_KINDS and not t["nullok"]
                            and "nonullcheck" not in words(t["impl"]))
            checked = checked_null or kind == "jframeID" or kind == "jrawMonitorID" or (
                kind == "jint" and t["min"] is not None)
            if checked and not agree:
                self.left_out.append((label, "the parameters up to it differ between the specs"))
                continue
            if checked_null:
                args, needs = self.args_with(f, k, "NULL")
                self.add("null.%s" % label if home == "live" else "null-onload.%s" % label,
                         C_STAGE[home], "CONF_FULL", f, args, needs)
                # Also in OnLoad when allowed there and no handle is needed.
                if home == "live" and "onload" in allowed and not any(needs):
                    self.add("null-onload.%s" % label, "CONF_ONLOAD", "CONF_FULL", f, args, needs)
            elif kind == "jframeID":
                args, needs = self.args_with(f, k, "-1")
                self.add("depth.%s" % label, C_STAGE[home], "CONF_FULL", f, args, needs)
            elif kind == "jint" and t["min"] is not None:
                args, needs = self.args_with(f, k, str(t["min"] - 1))
                self.add("min.%s" % label, C_STAGE[home], "CONF_FULL", f, args, needs)
            elif kind == "jrawMonitorID":
                for stage in ("onload", "live"):
                    if stage not in allowed:
                        continue
                    for what, value in (("null", "NULL"), ("bogus", "conf_bogus_monitor()")):
                        args, needs = self.args_with(f, k, value)
                        if stage == "onload" and any(needs):
                            continue
                        self.add("monitor-%s%s.%s" % (
                            what, "-onload" if stage == "onload" else "", label),
                            C_STAGE[stage], "CONF_FULL", f, args, needs)

    # A wrong but well-formed handle for each parameter that takes one, and
    # an enum value no constant has: (case kind, error the spec gives, value, needs).
    def wrong_values(self, p):
        t = p["type"]
        k = t["kind"]
        if k == "jthread":
            yield "bad-thread", "JVMTI_ERROR_INVALID_THREAD", "(jthread)c->klass", "CONF_NEED_CLASS"
            yield "unstarted", "JVMTI_ERROR_THREAD_NOT_ALIVE", "c->unstarted", "CONF_NEED_UNSTARTED"
        elif k == "jclass":
            yield "bad-class", "JVMTI_ERROR_INVALID_CLASS", "(jclass)c->thread", "CONF_NEED_THREAD"
        elif k == "jobject" and not t["nullok"]:
            yield "null-object", "JVMTI_ERROR_INVALID_OBJECT", "NULL", None
        elif k == "jmethodID":
            yield "null-method", "JVMTI_ERROR_INVALID_METHODID", "NULL", None
        elif k == "jfieldID":
            yield "null-field", "JVMTI_ERROR_INVALID_FIELDID", "NULL", None
        elif k == "jthreadGroup" and not t["nullok"]:
            yield "null-group", "JVMTI_ERROR_INVALID_THREAD_GROUP", "NULL", None
        elif k == "enum":
            values = [c["value"] for g in (self.own, self.oracle) for c in next(
                (x["constants"] for x in g["constant_groups"] if x["id"] == t["name"]), [])
                if c["value"] is not None]
            if values:
                yield "bad-enum", "JVMTI_ERROR_ILLEGAL_ARGUMENT", "(%s)%d" % (
                    t["name"], max(values) + 1), None

    @staticmethod
    def param_errors(f):
        return {(r["param"], r["error"]) for r in f["returns"] if r["origin"] == "param"}

    def handles(self, f, o, fid, home, ff, of):
        if home != "live":
            return  # handles exist in the live phase only
        own_errs, oracle_errs = self.param_errors(f), self.param_errors(o)
        for k, p in enumerate(params_of(f)):
            for what, err, value, need in self.wrong_values(p):
                label = "%s.%s" % (fid, p["name"])
                if (p["name"], err) not in own_errs:
                    continue
                if (p["name"], err) not in oracle_errs or ff[3][:k + 1] != of[3][:k + 1]:
                    self.left_out.append(("%s.%s" % (what, label),
                                          "the specs differ on it or on the parameters before it"))
                    continue
                args, needs = self.args_with(f, k, value)
                self.add("%s.%s" % (what, label), "CONF_LIVE", "CONF_FULL", f, args,
                         needs + [need])

    # ---- output ----
    def write(self, out):
        w = out.write
        w("/* Generated by tests/conformance/gen_cases.py from the models of two\n"
          " * specs: do not edit. %d cases.\n *\n * Left out:\n" % len(self.cases))
        for what, why in self.left_out:
            w(" *   %s: %s\n" % (what, why))
        w(" */\n#include <stddef.h>\n\n#include \"conformance.h\"\n\n")
        w("void conf_dummy(void) {}\n\n")
        w("/* Zeroes where a raw monitor's identity would be: no VM's monitor. */\n"
          "static jrawMonitorID conf_bogus_monitor(void)\n{\n"
          "    static _Alignas(64) unsigned char zeroes[1024];\n"
          "    return (jrawMonitorID)(void *)zeroes;\n}\n\n")
        capfns = {}
        for n, (cid, stage, env, needs, caps, body) in enumerate(self.cases):
            if caps and tuple(caps) not in capfns:
                name = "caps_%d" % len(capfns)
                capfns[tuple(caps)] = name
                w("static int %s(const jvmtiCapabilities *h)\n{\n    return %s;\n}\n\n" % (
                    name, " && ".join("h->%s" % c for c in caps)))
            w("static jvmtiError case_%d(jvmtiEnv *env, conf_ctx *c)\n{\n"
              "    (void)c;\n    return %s;\n}\n\n" % (n, body))
        w("const conf_case conf_cases[] = {\n")
        for n, (cid, stage, env, needs, caps, body) in enumerate(self.cases):
            w('    {"%s", %s, %s, %s, %s, case_%d},\n' % (
                cid, stage, env, " | ".join(needs) or "0",
                capfns[tuple(caps)] if caps else "NULL", n))
        w("};\nconst int conf_n_cases = %d;\n\n" % len(self.cases))
        self.write_facts(out)

    def write_facts(self, out):
        w = out.write
        own, oracle = self.own, self.oracle
        # Errors: those both specs define, for GetErrorName; names of all.
        o_err = {e["id"]: e["num"] for e in oracle["errors"]}
        both = [e for e in own["errors"] if o_err.get(e["id"]) == e["num"]]
        w("const conf_error conf_errors[] = {\n")
        for e in both:
            w('    {%d, "%s"},\n' % (e["num"], e["id"]))
        w("};\nconst int conf_n_errors = %d;\n\n" % len(both))
        names = {}
        for e in oracle["errors"] + own["errors"]:
            names.setdefault(e["num"], e["id"])
        w("const char *conf_error_name(jvmtiError err)\n{\n    switch ((int)err) {\n")
        for num in sorted(names):
            w('    case %d: return "%s";\n' % (num, names[num]))
        w("    }\n    return NULL;\n}\n\n")

        # Capabilities both specs define.
        o_caps = {c["id"] for c in (oracle["capabilities"] or {}).get("fields", [])}
        caps = [c["id"] for c in (own["capabilities"] or {}).get("fields", []) if c["id"] in o_caps]
        for c in caps:
            w("static int get_%s(const jvmtiCapabilities *c) { return c->%s; }\n" % (c, c))
            w("static void set_%s(jvmtiCapabilities *c, int on) { c->%s = on ? 1 : 0; }\n" % (c, c))
        w("\nconst conf_capability conf_capabilities[] = {\n")
        for c in caps:
            w('    {"%s", get_%s, set_%s},\n' % (c, c, c))
        w("};\nconst int conf_n_capabilities = %d;\n\n" % len(caps))

        # Events both specs define alike (number, filtering, capabilities).
        def ev_facts(e):
            return (e["num"], e["filtered"], tuple(e["capabilities"]["required"]))
        o_ev = {e["id"]: ev_facts(e) for e in oracle["events"]}
        evs = [e for e in own["events"] if o_ev.get(e["id"]) == ev_facts(e)]
        for e in evs:
            req = e["capabilities"]["required"]
            if req:
                w("static int ev_caps_%s(const jvmtiCapabilities *h) { return %s; }\n" % (
                    e["id"], " && ".join("h->%s" % c for c in req)))
        w("\nconst conf_event conf_events[] = {\n")
        for e in evs:
            w('    {"%s", %d, %d, %s},\n' % (
                e["id"], e["num"], 1 if e["filtered"] == "thread" else 0,
                "ev_caps_" + e["id"] if e["capabilities"]["required"] else "NULL"))
        w("};\nconst int conf_n_events = %d;\n" % len(evs))
        nums = sorted({e["num"] for e in own["events"]} | {e["num"] for e in oracle["events"]})
        w("const int conf_event_min = %d, conf_event_max = %d;\n\n" % (nums[0], nums[-1]))
        w("int conf_event_defined(int num)\n{\n    switch (num) {\n")
        for n in nums:
            w("    case %d:\n" % n)
        w("        return 1;\n    }\n    return 0;\n}\n")


def write_areas(own, out):
    labels = {c["id"]: c["label"] for c in own["categories"]}
    for f in own["functions"]:
        out.write("%s\t%s\n" % (f["id"], labels.get(f["category"], f["category"])))


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write("usage: gen_cases.py OWN.json ORACLE.json OUT.c [AREAS.txt]\n")
        return 2
    try:
        with open(argv[1]) as f:
            own = json.load(f)
        with open(argv[2]) as f:
            oracle = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write("gen_cases.py: %s\n" % e)
        return 1
    g = Gen(own, oracle)
    g.generate()
    with open(argv[3], "w") as out:
        g.write(out)
    if len(argv) == 5:
        with open(argv[4], "w") as out:
            write_areas(own, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
