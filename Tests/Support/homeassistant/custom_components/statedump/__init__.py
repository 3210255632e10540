"""For gpsfence's tests (Tests/EndToEndTests/RealHomeAssistant.swift): every state, with the name of
the device its entity belongs to, in states.json in the config folder (rewritten twice a second),
and every state change, in order, appended to changes.jsonl (a sensor that is on for a moment still
shows there). A button named in press.txt (one entity id a line) is pressed through Home Assistant's
own `button.press` service, as a person's click would, and the file removed."""
import json
import os
from datetime import timedelta

from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import callback
from homeassistant.helpers import device_registry as dr
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.event import async_track_time_interval


async def async_setup(hass, config):
    states_path = hass.config.path("states.json")
    changes_path = hass.config.path("changes.jsonl")

    def record(state):
        entry = er.async_get(hass).async_get(state.entity_id)
        device = dr.async_get(hass).async_get(entry.device_id) if entry and entry.device_id else None
        return json.loads(json.dumps(
            {"entity_id": state.entity_id, "state": state.state, "attributes": dict(state.attributes),
             "device": device.name if device else None},
            default=str))

    def write(states):
        tmp = states_path + ".tmp"
        with open(tmp, "w") as handle:
            json.dump(states, handle)
        os.replace(tmp, states_path)

    press_path = hass.config.path("press.txt")

    def take_presses():
        try:
            with open(press_path) as handle:
                names = [line.strip() for line in handle if line.strip()]
            os.remove(press_path)
            return names
        except FileNotFoundError:
            return []

    async def dump(_now=None):
        states = {s.entity_id: record(s) for s in hass.states.async_all()}
        await hass.async_add_executor_job(write, states)
        for entity_id in await hass.async_add_executor_job(take_presses):
            await hass.services.async_call("button", "press", {"entity_id": entity_id}, blocking=True)

    # Opened once, off the event loop: current releases log every open() inside the loop as a
    # blocking call. Line buffered, so each change is in the file as soon as it is written.
    changes = await hass.async_add_executor_job(lambda: open(changes_path, "a", buffering=1))

    # A callback runs in the event loop, in the order of the changes (a plain function would be
    # run on the executor's threads, in any order).
    @callback
    def changed(event):
        state = event.data.get("new_state")
        line = record(state) if state else {"entity_id": event.data.get("entity_id"), "state": None}
        changes.write(json.dumps(line) + "\n")

    hass.bus.async_listen(EVENT_STATE_CHANGED, changed)
    async_track_time_interval(hass, dump, timedelta(seconds=0.5))
    return True
