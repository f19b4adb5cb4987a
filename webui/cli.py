"""``patience serve [--lan]``."""
from __future__ import annotations

import datetime
import ipaddress
import secrets
import socket
from pathlib import Path

from .store import default_data_dir


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent: UDP connect only picks a route)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.255.255.255", 1))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def ensure_certificate(folder: Path, host: str) -> tuple[Path, Path]:
    """A self-signed certificate, made on first use, so that a phone's browser allows the camera."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "lan-cert.pem", folder / "lan-key.pem"
    if cert_path.exists() and key_path.exists():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        names = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        if ipaddress.ip_address(host) in names.get_values_for_type(x509.IPAddress):
            return cert_path, key_path
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Patience Companion (local)")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=825))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address(host)),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def print_qr(url: str) -> None:
    import qrcode
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    qr.print_ascii(invert=True)


def cmd_serve(args) -> int:
    from . import create_app
    data_dir = Path(args.data_dir) if args.data_dir else default_data_dir()
    if args.lan:
        host = args.host if args.host != "127.0.0.1" else "0.0.0.0"
        ip = lan_address()
        token = secrets.token_urlsafe(16)
        cert, key = ensure_certificate(data_dir / "tls", ip)
        app = create_app({"DATA_DIR": str(data_dir), "PAIRING_TOKEN": token})
        url = f"https://{ip}:{args.port}/?token={token}"
        print("Scan this with the phone at the table (accept the self-signed certificate once):", flush=True)
        print_qr(url)
        print(url, flush=True)
        app.run(host=host, port=args.port, ssl_context=(str(cert), str(key)), debug=False)
    else:
        app = create_app({"DATA_DIR": str(data_dir)})
        print(f"Patience Companion on http://{args.host}:{args.port}/  (Ctrl+C to stop)", flush=True)
        app.run(host=args.host, port=args.port, debug=False)
    return 0


def register(sub) -> None:
    p = sub.add_parser("serve", help="start the local web page (with --lan: HTTPS for a phone, paired by QR code)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--lan", action="store_true", help="serve the local network over HTTPS with a pairing token")
    p.add_argument("--data-dir", help="where sessions and photos are kept (default: the user's data directory)")
    p.set_defaults(func=cmd_serve)
