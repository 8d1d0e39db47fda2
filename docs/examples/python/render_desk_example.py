#!/usr/bin/env python3
"""Render Desk from Python with the standard library only (urllib): one image, then a batch
of three rows downloaded as a zip.

    RENDER_DESK_URL=http://127.0.0.1:5317 RENDER_DESK_API_KEY=rdk_... \\
        python3 render_desk_example.py --out-dir out

The headless server prints its URL and, on a new data folder, an admin key
(`npm run serve`); keys with the `render` scope are enough here.
"""

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.request

TEMPLATE = "tmpl_product_promo"


class RenderDeskError(Exception):
    """A problem+json answer: `code` is stable (docs/errors.md), `detail` says what to do."""

    def __init__(self, status, problem):
        self.status = status
        self.code = problem.get("code", "unknown")
        self.detail = problem.get("detail", "")
        super().__init__(f"{status} {self.code}: {self.detail}")


class RenderDesk:
    def __init__(self, base_url, api_key, timeout=60):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def request(self, method, path, body=None, auth=True):
        """Sends a request; returns (headers, bytes). A 4xx/5xx raises RenderDeskError."""
        url = path if path.startswith("http") else self.base_url + path
        data = None
        headers = {"Accept": "application/json, image/*, application/zip"}
        if auth:
            headers["Authorization"] = f"Bearer {self.api_key}"
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as res:
                return res.headers, res.read()
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                problem = json.loads(raw)
            except ValueError:
                problem = {"detail": raw.decode("utf-8", "replace")}
            raise RenderDeskError(error.code, problem) from None

    def json(self, method, path, body=None):
        _, raw = self.request(method, path, body)
        return json.loads(raw)

    def render(self, values, target="square", fmt="png"):
        """POST /v1/render: the image bytes and the credits left."""
        headers, image = self.request(
            "POST",
            "/v1/render",
            {"templateId": TEMPLATE, "target": target, "format": fmt, "values": values},
        )
        return image, int(headers.get("x-credits-remaining", "-1"))

    def run_batch(self, records, timeout_seconds=300):
        """POST /v1/render-batches with json-array records, then polls until it ends."""
        accepted = self.json(
            "POST",
            "/v1/render-batches",
            {"templateId": TEMPLATE, "sourceType": "json-array", "source": {"records": records}},
        )
        deadline = time.monotonic() + timeout_seconds
        while True:
            batch = self.json("GET", f"/v1/render-batches/{accepted['id']}")
            if batch["status"] not in ("queued", "running"):
                return batch
            if time.monotonic() > deadline:
                raise TimeoutError(f"batch {batch['id']} is still {batch['status']}")
            time.sleep(0.25)

    def download_bundle(self, batch_id, path):
        """GET /v1/render-batches/{id}/bundle gives a signed link; the zip needs no key."""
        link = self.json("GET", f"/v1/render-batches/{batch_id}/bundle?manifest=true")
        _, data = self.request("GET", link["url"], auth=False)
        with open(path, "wb") as out:
            out.write(data)
        return len(data)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("RENDER_DESK_URL", "http://127.0.0.1:5317"))
    parser.add_argument("--key", default=os.environ.get("RENDER_DESK_API_KEY"))
    parser.add_argument("--out-dir", default=".")
    args = parser.parse_args(argv)
    if not args.key:
        parser.error("give --key or set RENDER_DESK_API_KEY")
    os.makedirs(args.out_dir, exist_ok=True)
    rd = RenderDesk(args.url, args.key)

    image, credits = rd.render(
        {"headline": "Vitamin C Serum", "price": 24.5, "photo": "asset:product.jpg"}
    )
    card = os.path.join(args.out_dir, "card.png")
    with open(card, "wb") as out:
        out.write(image)
    print(f"rendered {card} ({len(image)} bytes), {credits} credits left")

    records = [
        {"headline": f"Serum no. {i}", "price": 20 + i, "photo": "asset:product.jpg"}
        for i in range(1, 4)
    ]
    batch = rd.run_batch(records)
    print(f"batch {batch['id']}: {batch['status']}, {batch['succeeded']} of {batch['total']} rendered")
    if batch["succeeded"] == 0:
        return 1
    bundle = os.path.join(args.out_dir, "batch.zip")
    size = rd.download_bundle(batch["id"], bundle)
    print(f"downloaded {bundle} ({size} bytes)")
    return 0 if batch["status"] == "succeeded" else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except RenderDeskError as error:
        print(f"Render Desk refused: {error}", file=sys.stderr)
        sys.exit(2)
