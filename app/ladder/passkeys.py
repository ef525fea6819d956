"""Passkeys: an account opened on another device without copying its secret.

Two WebAuthn ceremonies, each in two steps, verified by py_webauthn (the ``webauthn``
package, pinned in pyproject.toml):

- **register** (signed in, with the account's secret): :meth:`Passkeys.register_options`
  issues a challenge for this account; :meth:`Passkeys.register` checks the browser's answer
  and keeps the passkey (a discoverable credential: the authenticator keeps the account's
  id, so signing in needs no handle);
- **login** (signed out): :meth:`Passkeys.login_options` issues a challenge for anyone;
  :meth:`Passkeys.login` checks the signed answer against the stored public key and gives
  this device a new secret of its own for the account.

A challenge is 64 random bytes, kept in the ladder store (so any process may take the
answer), for one ceremony (and, to register, one account), used once (the store takes it
away as it reads it) and for :data:`CHALLENGE_SECONDS` of the service's clock. The origin and
RP ID an answer must name are the configured public origin's (``BLEF_PUBLIC_ORIGIN``), never
a request's. Each refusal is its own :class:`~app.ladder.errors.PasskeyRefused` (HTTP 400).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any, Final
from urllib.parse import urlsplit

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    bytes_to_base64url,
    parse_attestation_object,
    parse_authentication_credential_json,
    parse_authenticator_data,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.ladder.errors import (
    BadSignature,
    ChallengeExpired,
    ChallengeUnknown,
    CounterWentBack,
    LastWayIn,
    MalformedPasskeyResponse,
    PasskeyExists,
    PasskeysUnavailable,
    UnknownPasskey,
    WrongOrigin,
)
from app.ladder.service import Ladder, secret_hash
from app.ladder.store import Challenge, LadderConflict, LadderStore, Passkey

log = logging.getLogger("blef.ladder")

Body = dict[str, Any]

CHALLENGE_SECONDS: Final = 180.0
"""How long an issued challenge may be answered (the browser is told two thirds of it)."""
RP_NAME: Final = "Blef"
REGISTER: Final = "register"
LOGIN: Final = "login"
ALGORITHMS: Final = [
    COSEAlgorithmIdentifier.ECDSA_SHA_256,
    COSEAlgorithmIdentifier.EDDSA,
    COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256,
]


class Passkeys:
    """The passkey use cases of ``ladder`` (its store, clock, secrets), for ``origin``."""

    def __init__(self, ladder: Ladder, origin: str | None) -> None:
        self.ladder = ladder
        self.origin = origin
        self.rp_id = urlsplit(origin).hostname if origin else None

    @property
    def store(self) -> LadderStore:
        return self.ladder.store

    def _site(self) -> tuple[str, str]:
        if self.origin is None or not self.rp_id:
            raise PasskeysUnavailable
        return self.origin, self.rp_id

    def _issue(self, challenge: bytes, ceremony: str, account_id: str | None) -> None:
        now = self.ladder.now
        self.store.purge_challenges(now)
        self.store.put_challenge(
            Challenge(bytes_to_base64url(challenge), ceremony, account_id, now + CHALLENGE_SECONDS)
        )

    def _take(self, challenge: bytes, ceremony: str, account_id: str | None) -> None:
        """Use up the answer's challenge: refused if never issued, used already, for the
        other ceremony or account, or expired."""
        taken = self.store.take_challenge(bytes_to_base64url(challenge))
        if taken is None or taken.ceremony != ceremony or taken.account_id != account_id:
            raise ChallengeUnknown
        if self.ladder.now > taken.expires_at:
            raise ChallengeExpired

    # ------------------------------------------------------------------ adding a passkey

    def register_options(self, secret: str | None) -> Body:
        """The options for ``navigator.credentials.create`` (as JSON): a discoverable
        credential for this account, user verification preferred, none of its passkeys
        again."""
        account = self.ladder.authenticate(secret)
        _, rp_id = self._site()
        options = generate_registration_options(
            rp_id=rp_id,
            rp_name=RP_NAME,
            user_name=account.handle,
            user_id=account.account_id.encode(),
            user_display_name=account.handle,
            timeout=int(CHALLENGE_SECONDS * 1000 * 2 / 3),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=_bytes(p.credential_id))
                for p in self.store.passkeys(account.account_id)
            ],
            supported_pub_key_algs=ALGORITHMS,
        )
        self._issue(options.challenge, REGISTER, account.account_id)
        body: Body = json.loads(options_to_json(options))
        return body

    def register(self, secret: str | None, credential: object) -> Body:
        """Keep the passkey the browser made from :meth:`register_options`."""
        account = self.ladder.authenticate(secret)
        origin, rp_id = self._site()
        try:
            parsed = parse_registration_credential_json(_object(credential))
            client = parse_client_data_json(parsed.response.client_data_json)
            made = parse_attestation_object(parsed.response.attestation_object).auth_data
        except Exception:
            raise MalformedPasskeyResponse from None
        self._take(client.challenge, REGISTER, account.account_id)
        if client.origin != origin or made.rp_id_hash != _rp_id_hash(rp_id):
            raise WrongOrigin
        try:
            verified = verify_registration_response(
                credential=parsed,
                expected_challenge=client.challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
                supported_pub_key_algs=ALGORITHMS,
            )
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError) as error:
            raise BadSignature(_reason("The passkey could not be added", error)) from None
        passkey = Passkey(
            credential_id=bytes_to_base64url(verified.credential_id),
            account_id=account.account_id,
            public_key=verified.credential_public_key,
            sign_count=verified.sign_count,
            created_at=self.ladder.now,
        )
        try:
            self.store.add_passkey(passkey)
        except LadderConflict:
            if self.store.account(account.account_id) is None:
                raise UnknownPasskey("The account was deleted meanwhile") from None
            raise PasskeyExists from None
        log.info("passkey_added")
        return {
            "credential_id": passkey.credential_id,
            "passkeys": len(self.store.passkeys(account.account_id)),
        }

    def listed(self, secret: str | None) -> Body:
        """The account's passkeys: when each was added and last used."""
        account = self.ladder.authenticate(secret)
        return {
            "passkeys": [
                {
                    "credential_id": p.credential_id,
                    "created_at": p.created_at,
                    "last_used_at": p.last_used_at,
                }
                for p in self.store.passkeys(account.account_id)
            ]
        }

    # ------------------------------------------------------------------ signing in

    def login_options(self) -> Body:
        """The options for ``navigator.credentials.get``: any passkey of this site
        (discoverable: the authenticator offers its own), user verification preferred."""
        _, rp_id = self._site()
        options = generate_authentication_options(
            rp_id=rp_id,
            timeout=int(CHALLENGE_SECONDS * 1000 * 2 / 3),
            user_verification=UserVerificationRequirement.PREFERRED,
        )
        self._issue(options.challenge, LOGIN, None)
        body: Body = json.loads(options_to_json(options))
        return body

    def login(self, credential: object) -> Body:
        """Check a signed answer to :meth:`login_options` and give this device a new secret
        for the passkey's account: ``{account_id, handle, secret}``, the secret told once."""
        origin, rp_id = self._site()
        try:
            parsed = parse_authentication_credential_json(_object(credential))
            client = parse_client_data_json(parsed.response.client_data_json)
            signed = parse_authenticator_data(parsed.response.authenticator_data)
            credential_id = bytes_to_base64url(parsed.raw_id)
        except Exception:
            raise MalformedPasskeyResponse from None
        self._take(client.challenge, LOGIN, None)
        if client.origin != origin or signed.rp_id_hash != _rp_id_hash(rp_id):
            raise WrongOrigin
        passkey = self.store.passkey(credential_id)
        if passkey is None or parsed.id != credential_id:
            raise UnknownPasskey
        handle = parsed.response.user_handle
        if handle is None:  # nobody was named before: the answer must name its user
            raise MalformedPasskeyResponse("A passkey sign-in must name its user (userHandle)")
        if handle != passkey.account_id.encode():
            raise UnknownPasskey("This passkey was made for another account")
        try:
            verified = verify_authentication_response(
                credential=parsed,
                expected_challenge=client.challenge,
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=passkey.public_key,
                credential_current_sign_count=0,  # the counter is checked below, once signed
            )
        except (WebAuthnException, ValueError, TypeError, KeyError, IndexError) as error:
            raise BadSignature(_reason("The passkey's answer does not verify", error)) from None
        # Only a signed answer hears about the counter: an unsigned one learns nothing of it.
        count = verified.new_sign_count
        if (count or passkey.sign_count) and count <= passkey.sign_count:
            raise CounterWentBack
        account = self.store.account(passkey.account_id)
        if account is None:
            raise UnknownPasskey
        try:
            self.store.use_passkey(
                credential_id, passkey.sign_count, verified.new_sign_count, self.ladder.now
            )
        except LadderConflict:
            raise CounterWentBack from None  # a racing sign-in with the same counter won
        secret = self.ladder.new_device_secret(account.account_id)
        log.info("passkey_login")
        return {"account_id": account.account_id, "handle": account.handle, "secret": secret}

    # ------------------------------------------------------------------ signing out

    def sign_out(self, secret: str | None) -> None:
        """Forget the secret this device signed in with. Refused when it is the account's
        only secret and it has no passkey: nothing would open the account again."""
        account = self.ladder.authenticate(secret)
        assert secret is not None
        if self.store.secret_count(account.account_id) <= 1 and not self.store.passkeys(
            account.account_id
        ):
            raise LastWayIn
        self.store.forget_secret(secret_hash(secret))
        log.info("device_signed_out")


def _rp_id_hash(rp_id: str) -> bytes:
    return hashlib.sha256(rp_id.encode()).digest()


def _object(credential: object) -> dict[str, Any]:
    if not isinstance(credential, dict):
        raise MalformedPasskeyResponse
    return credential


def _bytes(credential_id: str) -> bytes:
    from webauthn import base64url_to_bytes  # noqa: PLC0415

    return base64url_to_bytes(credential_id)


def _reason(what: str, error: Exception) -> str:
    said = str(error).splitlines()[0][:160] if str(error) else type(error).__name__
    return f"{what}: {said}"
