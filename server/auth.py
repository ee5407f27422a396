"""Who may write. The operator token opens the operator console and the journal entries; the TD
token opens everything the operator may do plus alerts, delays and downloads. A token comes in
an `Authorization: Bearer` header (scripts) or through the login form, which keeps the roles it
opened in the signed session cookie (pages, the camera preview). Tokens are compared in constant
time, and every token is compared every time, so timing says nothing about which matched."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

from flask import request, session

OPERATOR, TD = "operator", "td"


@dataclass(frozen=True)
class Tokens:
    operator: str = field(repr=False)
    td: str = field(repr=False)

    def roles(self, given: str) -> frozenset[str]:
        """The roles a token opens: none, the operator's, or the TD's (which include them)."""
        data = given.encode()
        is_operator = hmac.compare_digest(data, self.operator.encode())
        is_td = hmac.compare_digest(data, self.td.encode())
        if is_td:
            return frozenset({OPERATOR, TD})
        return frozenset({OPERATOR}) if is_operator else frozenset()


def request_roles(tokens: Tokens) -> frozenset[str]:
    """Roles of the current request: a bearer token when one is sent (the cookie is then
    ignored), otherwise what the login cookie holds."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, given = header.partition(" ")
        return tokens.roles(given.strip()) if scheme.lower() == "bearer" else frozenset()
    return frozenset(session.get("roles", ()))


def safe_next(target: str | None, fallback: str = "/") -> str:
    """A local path to go to after login; anything that could leave this site is replaced,
    also through characters a browser drops from a URL (a tab in `/\t/evil.example`) or that
    cannot stand in a header (CR, LF)."""
    if not target or any(ord(ch) < 0x21 or ord(ch) == 0x7F for ch in target):
        return fallback
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return fallback
    return target
