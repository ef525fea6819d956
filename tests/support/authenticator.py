"""A software WebAuthn authenticator for the tests: ES256 (P-256) keys made with
``cryptography``, its answers built byte by byte as the WebAuthn spec lays them out
(authenticatorData, clientDataJSON, an attestation of format "none"), in the JSON form a
browser's ``PublicKeyCredential.toJSON()`` gives. Every part can be bent for an attack:
another origin, RP ID, challenge, counter, user handle or signing key."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _cose_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    numbers = key.public_key().public_numbers()
    return cbor2.dumps(
        {
            1: 2,  # kty: EC2
            3: -7,  # alg: ES256
            -1: 1,  # crv: P-256
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
    )


@dataclass
class SoftAuthenticator:
    """One passkey: its key, its credential id, its counter (``counting``: grows by one at
    each signature, as a security key's does; else stays 0, as a synced passkey's does)."""

    origin: str
    rp_id: str
    counting: bool = True
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    sign_count: int = 0
    user_handle: bytes | None = None

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {
                "type": kind,
                "challenge": challenge,
                "origin": origin or self.origin,
                "crossOrigin": False,
            },
            separators=(",", ":"),
        ).encode()

    def create(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        challenge: str | None = None,
        flags: int = UP | UV | AT,
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)``."""
        self.user_handle = unb64url(options["user"]["id"])
        client = self._client_data("webauthn.create", challenge or options["challenge"], origin)
        data = (
            hashlib.sha256((rp_id or self.rp_id).encode()).digest()
            + bytes([flags])
            + struct.pack(">I", self.sign_count)
            + bytes(16)  # AAGUID: none
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + _cose_key(self.key)
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client),
                "attestationObject": b64url(attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }

    def get(
        self,
        options: dict[str, Any],
        *,
        origin: str | None = None,
        rp_id: str | None = None,
        challenge: str | None = None,
        sign_count: int | None = None,
        user_handle: bytes | None = None,
        signer: ec.EllipticCurvePrivateKey | None = None,
        credential_id: bytes | None = None,
        flags: int = UP | UV,
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)``, signed."""
        if sign_count is None:
            if self.counting:
                self.sign_count += 1
            sign_count = self.sign_count
        client = self._client_data("webauthn.get", challenge or options["challenge"], origin)
        data = (
            hashlib.sha256((rp_id or self.rp_id).encode()).digest()
            + bytes([flags])
            + struct.pack(">I", sign_count)
        )
        signature = (signer or self.key).sign(
            data + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256())
        )
        handle = user_handle if user_handle is not None else self.user_handle
        credential = credential_id or self.credential_id
        return {
            "id": b64url(credential),
            "rawId": b64url(credential),
            "type": "public-key",
            "response": {
                "clientDataJSON": b64url(client),
                "authenticatorData": b64url(data),
                "signature": b64url(signature),
                "userHandle": b64url(handle) if handle is not None else None,
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
