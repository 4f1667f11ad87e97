#!/usr/bin/python3
"""A screen reader's view of an app, through libatspi (python3-pyatspi).

The tests run it as Orca would reach the app: on the accessibility bus,
by the names, roles and states the app gives. It prints one JSON object.

  client.py read APP WINDOW [STEPS]
      Waits for APP on the desktop and a window of it whose name starts
      with WINDOW; prints the window's nodes in reading order, then does
      STEPS, a JSON list, in order:
        {"set": NAME, "text": TEXT}   EditableText.SetTextContents on NAME
        {"do": NAME, "role": ROLE}    the first action of NAME, of ROLE
        {"read": NAME, "role": ROLE}  the node NAME of ROLE again, as it is now
        {"focus": NAME, "role": ROLE} Component.GrabFocus on NAME, of ROLE
        {"expect": EVENT, "name": NAME}  waits for an event of that type
                                      from NAME, as Orca hears it
        {"wait": TEXT, "role": ROLE}  waits for a node of ROLE whose name
                                      holds TEXT (a list loads later)
        {"stale": NAME, "role": ROLE} once the window has closed, calls
                                      the node NAME as it was read first:
                                      each call must fail or say defunct
      A name is matched whole; the first node in reading order wins.
  client.py gone APP
      Waits until APP has left the desktop.
  client.py watch APP WINDOW
      Prints "listening", then waits for a window:create event of a window
      of APP whose name starts with WINDOW, walks the window as read does,
      and prints when (Unix seconds) the event arrived and the walk ended.
"""

import json
import sys
import time

import pyatspi
from gi.repository import GLib

WAIT = 30  # seconds for anything to show up


def until(what, find):
    end = time.time() + WAIT
    while time.time() < end:
        found = find()
        if found is not None:
            return found
        time.sleep(0.1)
    sys.exit("timed out waiting for " + what)


def app_named(name):
    for app in pyatspi.Registry.getDesktop(0):
        if app is not None and app.name == name:
            return app
    return None


def window_of(app, prefix):
    for w in app:
        if w is not None and w.name.startswith(prefix):
            return w
    return None


def describe(node, depth):
    ifaces = node.get_interfaces()
    text = None
    if "Text" in ifaces:
        t = node.queryText()
        text = t.getText(0, -1)
    actions = []
    if "Action" in ifaces:
        a = node.queryAction()
        actions = [a.getName(i) for i in range(a.nActions)]
    return {
        "depth": depth,
        "role": node.getRoleName(),
        "name": node.name,
        "description": node.description,
        "text": text,
        "states": sorted(pyatspi.stateToString(s) for s in node.getState().getStates()),
        "actions": actions,
        "interfaces": sorted(ifaces),
    }


def walk(node, depth=0):
    yield node, depth
    for child in node:
        if child is not None:
            yield from walk(child, depth + 1)


def named(window, name, role=None):
    for node, _ in walk(window):
        if node.name == name and (role is None or node.getRoleName() == role):
            return node
    sys.exit("no node named %r (role %r)" % (name, role))


HEARD = []  # (event type, source name), as events arrive


def heard(event):
    try:
        HEARD.append((event.type, event.source.name))
    except Exception:  # an object already gone: its events say nothing
        pass


def expect(kind, name):
    end = time.time() + WAIT
    while time.time() < end:
        if (kind, name) in HEARD:
            return True
        GLib.MainContext.default().iteration(False)
        time.sleep(0.01)
    sys.exit("no %s from %r; heard %r" % (kind, name, HEARD))


def stale(node):
    """What calls on a node of a closed window answer: an error's name,
    or what came back."""
    answers = []
    for call in (lambda: node.name,
                 lambda: [pyatspi.stateToString(s) for s in node.getState().getStates()],
                 lambda: node.queryText().getText(0, -1),
                 lambda: node.queryEditableText().setTextContents("late"),
                 lambda: node.queryAction().doAction(0),
                 lambda: node.getChildAtIndex(0)):
        try:
            answers.append(repr(call()))
        except Exception as e:
            answers.append("error: " + type(e).__name__)
    return answers


def read(app_name, prefix, steps):
    pyatspi.Registry.registerEventListener(
        heard, "object:state-changed", "object:property-change", "object:text-changed", "focus:", "window:activate")
    app = until("the app " + app_name, lambda: app_named(app_name))
    window = until("a window " + prefix, lambda: window_of(app, prefix))
    started = time.time()
    nodes = list(walk(window))
    tree = [describe(n, d) for n, d in nodes]
    # Each node's name and role as read while the window is open: a step
    # that looks for a node after the window closed must not ask it again.
    known = [(n, n.name, n.getRoleName()) for n, _ in nodes]
    out = {"window": window.name, "tree": tree, "read_ms": round((time.time() - started) * 1000), "steps": []}
    for step in steps:
        if "set" in step:
            node = named(window, step["set"])
            ok = node.queryEditableText().setTextContents(step["text"])
            out["steps"].append({"set": step["set"], "ok": ok})
        elif "do" in step:
            node = named(window, step["do"], step.get("role"))
            ok = node.queryAction().doAction(0)
            out["steps"].append({"do": step["do"], "ok": ok})
        elif "focus" in step:
            ok = named(window, step["focus"], step.get("role")).queryComponent().grabFocus()
            out["steps"].append({"focus": step["focus"], "ok": ok})
        elif "expect" in step:
            ok = expect(step["expect"], step["name"])
            out["steps"].append({"expect": step["expect"], "ok": ok})
        elif "wait" in step:
            def found():
                for n, _ in walk(window):
                    if step["wait"] in n.name and n.getRoleName() == step["role"]:
                        return describe(n, 0)
                return None
            out["steps"].append({"read": until(step["wait"], found)})
        elif "stale" in step:
            held = next(n for n, name, role in known if name == step["stale"] and role == step["role"])
            until("the window to close", lambda: True if all(w != window for w in app) else None)
            held.clearCache()
            out["steps"].append({"stale": step["stale"], "answers": stale(held)})
        elif "read" in step:
            node = named(window, step["read"], step.get("role"))
            node.clearCache()
            out["steps"].append({"read": describe(node, 0)})
    print(json.dumps(out))


def watch(app_name, prefix):
    created = []

    def on_create(event):
        if event.source.name.startswith(prefix):
            created.append((time.time(), event.source))

    pyatspi.Registry.registerEventListener(on_create, "window:create")
    app = until("the app " + app_name, lambda: app_named(app_name))
    print("listening", flush=True)
    end = time.time() + WAIT
    while not created and time.time() < end:
        GLib.MainContext.default().iteration(False)
        time.sleep(0.001)
    if not created:
        sys.exit("no window:create from a window " + prefix)
    at, window = created[0]
    nodes = [describe(n, d) for n, d in walk(window)]
    done = time.time()
    print(json.dumps({"created": at, "read": done, "nodes": len(nodes), "app": app.name}))


def main():
    if sys.argv[1] == "read":
        read(sys.argv[2], sys.argv[3], json.loads(sys.argv[4]) if len(sys.argv) > 4 else [])
    elif sys.argv[1] == "watch":
        watch(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "gone":
        until(sys.argv[2] + " to leave", lambda: True if app_named(sys.argv[2]) is None else None)
        print(json.dumps({"gone": sys.argv[2]}))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
