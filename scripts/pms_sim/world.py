"""The served portfolio: properties generated on demand (thread-safe), looked up by key / site id / code."""

import threading

from .portfolio import Generator, load_registry
from .quirks import Quirks


class World:
    def __init__(self, seed, as_of, registry_path=None, disabled_quirks=(), enabled_quirks=()):
        self.seed = seed
        self.as_of = as_of
        self.gen = Generator(seed, as_of, load_registry(registry_path))
        self.specs = {s[1]: s for s in self.gen.specs()}
        self.keys = list(self.specs)
        self.by_pms_id = {(s[0], s[3].lower()): s[1] for s in self.specs.values()}
        self._props = {}
        # Which served properties show each vendor quirk (quirks.py), drawn from the seed.
        self.quirks = Quirks(seed, {pms: self.keys_for(pms) for pms in ("realpage", "yardi")}, disabled_quirks,
                             enabled_quirks)
        self.gen.quirks = self.quirks     # the report writers take the generator
        self._lock = threading.Lock()     # property generation is serialized (shared id counters)
        self.caches = {}
        self._cache_lock = threading.Lock()

    def spec(self, key):
        return self.specs.get(key)

    def get(self, key):
        p = self._props.get(key)
        if p is not None:
            return p
        with self._lock:
            p = self._props.get(key)
            if p is None:
                p = self.gen.gen_property(*self.specs[key])
                self._props[key] = p
            return p

    def generated(self, key):
        return key in self._props

    def key_for(self, pms, pms_id):
        if pms_id is None:
            return None
        return self.by_pms_id.get((pms, str(pms_id).strip().lower()))

    def keys_for(self, pms):
        return [k for k in self.keys if self.specs[k][0] == pms]

    def cached(self, name, fn):
        """Memoize expensive serialized payloads (e.g. a property's full ledger XML)."""
        v = self.caches.get(name)
        if v is None:
            v = fn()
            with self._cache_lock:
                self.caches[name] = v
        return v

    def warm(self, keys=None):
        for k in keys or self.keys:
            self.get(k)
