"""Writes every state to states.json in the config folder, once a second, for tests."""
import json
import os
from datetime import timedelta

from homeassistant.helpers.event import async_track_time_interval


async def async_setup(hass, config):
    path = hass.config.path("states.json")

    def write(states):
        tmp = path + ".tmp"
        with open(tmp, "w") as handle:
            json.dump(states, handle)
        os.replace(tmp, path)

    async def dump(_now=None):
        states = {s.entity_id: {"state": s.state, "attributes": dict(s.attributes)} for s in hass.states.async_all()}
        await hass.async_add_executor_job(write, json.loads(json.dumps(states, default=str)))

    async_track_time_interval(hass, dump, timedelta(seconds=1))
    return True
