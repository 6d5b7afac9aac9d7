"""The rule-profile language: loading, validation, explanation."""

from paiqi_core.profile.errors import Location, Problem, ProfileError
from paiqi_core.profile.load import load_profile
from paiqi_core.profile.model import Origin, Profile

__all__ = ["Location", "Origin", "Problem", "Profile", "ProfileError", "load_profile"]
