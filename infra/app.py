#!/usr/bin/env python3
"""The CDK app: one Blef stack per environment, and nothing else.

    cd infra && ../.venv/bin/python app.py                # dev, into infra/cdk.out/
    .venv/bin/python infra/app.py -c env=all              # both, from the repository root
    npx aws-cdk@2.1148.1 deploy -c env=prod               # through the CDK CLI (cdk.json)

Context values (``-c key=value``, on the CDK CLI or on this script's own command line):

- ``env``: ``dev`` (default), ``prod``, or ``all`` to synthesise both.
- ``lambda_asset``: the folder built by ``deployment/build_lambda_asset.py`` (default
  ``build/lambda`` in the repository; a relative path is taken from the current directory).
  Without it the function gets placeholder code and the stack an error, which the CLI
  refuses to deploy (templates are still written).
- ``alarm_email``: an address subscribed to the alarm topic.
- ``reserved_concurrency`` (a number, or ``none``), ``throttle_rate_limit``,
  ``throttle_burst_limit``: override the environment's settings (``blef_infra/config.py``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import aws_cdk as cdk

# Python puts this script's folder first on sys.path, so blef_infra is found from anywhere.
from blef_infra import DEFAULT_ENVIRONMENT, ENVIRONMENTS, BlefStack, settings_for
from blef_infra.context import context_flags, read_context

INFRA_DIR = Path(__file__).resolve().parent
REPO_DIR = INFRA_DIR.parent


def main(argv: list[str]) -> None:
    # Under the CDK CLI, CDK_OUTDIR says where the CLI will read the assembly from.
    outdir = os.environ.get("CDK_OUTDIR", str(INFRA_DIR / "cdk.out"))
    app = cdk.App(outdir=outdir, context=context_flags(argv))
    context = read_context(app)

    env_name = context.get("env", DEFAULT_ENVIRONMENT)
    env_names = sorted(ENVIRONMENTS) if env_name == "all" else [env_name]
    asset_dir = Path(context.get("lambda_asset", REPO_DIR / "build" / "lambda")).resolve()
    account = cdk.Environment(
        account=os.environ.get("CDK_DEFAULT_ACCOUNT"), region=os.environ.get("CDK_DEFAULT_REGION")
    )
    for name in env_names:
        BlefStack(
            app,
            f"Blef-{name}",
            settings=settings_for(name, context),
            asset_dir=asset_dir,
            alarm_email=context.get("alarm_email"),
            env=account,
            description=f"Blef card game service ({name})",
        )
    app.synth()

    print(f"synthesised {', '.join(f'Blef-{n}' for n in env_names)} into {outdir}", file=sys.stderr)
    if not asset_dir.is_dir():
        print(
            f"warning: {asset_dir} does not exist: the function has placeholder code, and the "
            "CDK CLI will refuse to deploy. Run deployment/build_lambda_asset.py first.",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main(sys.argv[1:])
