"""Masking secrets and identifiers inside text values before they reach any output.

:func:`mask_text` is the one function every output path masks with (``--collect``'s snapshot, ``--log`` quotes in
text and JSON, ``--from`` and ``lingjun-check fleet`` as they read a snapshot, fleet's report inputs and names), on a
whole value before anything cuts or splits it.  It applies two kinds, two functions:

* :func:`mask_secrets` (always applied; ``--include-ids`` does not keep them):
  credentials in a URL's user part (``https://user:pw@host``), the same
  without a scheme (``user:pw@host:3128``), the values of query or fragment
  parameters and of ``key=value`` pairs in free text whose key names a secret by a word of it
  (``?access_token=``, ``&X-Amz-Signature=``, ``sig=``, ``api_key=``, ``HF_TOKEN=``, ``dbPassword=``,
  ``password=hunter2``, ``cred=``; not ``key_len=``, ``num_keys=``, ``passed=``, ``tokens_per_sec=``, whose words
  only contain one: :func:`_secret_key`; a quoted value whatever it holds, JSON-escaped quotes too), the value after a
  flag whose name ends in a secret's name (``--hf-token x``), the credential of an ``Authorization:``
  header or a ``Bearer`` token, and secrets recognisable by their shape
  wherever they stand (:data:`TOKEN_SHAPES`: GitHub, AWS, Alibaba Cloud
  AccessKey and STS ids, Google API keys, ModelScope, Hugging Face, OpenAI
  and Slack tokens, JWTs, Slack webhook paths, private key blocks), the
  value after any name ending in a secret's name and a colon
  (``DB_PASSWORD:x``, ``X-Api-Key: x``), and ``Basic <base64>`` when the
  word decodes to ``user:password``, with or without ``Authorization:``.
* :func:`mask_identifiers` (applied unless ``--include-ids``): GPU and MIG
  UUIDs by their shape (:data:`DEVICE_UUID_SHAPE`, in any variable or text:
  ``GPU-***``, ``MIG-***``), IP addresses and the user name of a home directory.  Every IPv4 address (``10.0.0.5``,
  ``peer=10.0.0.5``, ``10.0.0.1,10.0.0.2``, with a port or a prefix) and
  every IPv6 address (``2001:db8::1``, bracketed or bare; a bare one must
  have ``::`` or all eight groups, so times and MAC addresses stay) becomes
  ``***``.  A dotted number of four parts is a version as often as an
  address (cuDNN ``9.1.0.70``), so the context decides: it is kept in a
  version field (``keep_versions``: :func:`mask_strings` passes it for a
  field or dict key whose name ends in ``version``, e.g. ``cudnn.version``,
  ``NV_CUDNN_VERSION``), after a version operator (``==9.1.0.70``,
  ``>=9.1.0.70``, a requirement line), and inside a longer token: a file name or a package's version
  (``libcudnn.so.9.1.0.70``, ``v9.1.0.70``, ``libnccl-net-1.2.3.4.so``, ``TensorRT-10.3.0.26``,
  ``9.1.0.70-1ubuntu1``); anywhere else (``10.1.2.3<43891>``, ``addr=10.0.0.1``) it is masked.
  Home directories: ``/home/<u>`` and ``/Users/<u>`` as any path segment
  (``/data/home/<u>``, ``/var/home/<u>``, ``/mnt/home/<u>``),
  ``C:\\Users\\<u>`` and ``~<u>``.  Host names are not recognised in free text;
  variables named for a peer (``MASTER_ADDR``, ``NCCL_COMM_ID``) are dropped by
  name instead (:mod:`lingjun.checks.probes.env_vars`).

What is masked becomes ``***``; the rest of the value is kept, so a reader
still sees that a proxy or a home-directory path was set.
:func:`mask_strings` applies a function to every string inside dataclasses,
lists and dicts (in place).

A pattern is tried only where the value holds the literal text it cannot match without (an ``@`` for a user
part, a secret's name for ``key=value``, :data:`TOKEN_SHAPE_LITERALS` for the token shapes, a digit, a dot
and a digit for an IPv4 address): a long value with nothing to mask costs a few scans at C speed, not a
regular expression tried at each of its characters (a 2 MB GPU name took seconds).  The result is the same
as trying every pattern.

Examples:
    >>> mask_secrets("https://u:p@h/x?access_token=abc&x=1")
    'https://***@h/x?access_token=***&x=1'
    >>> mask_secrets("alice:s3cret@proxy.internal:3128")
    '***@proxy.internal:3128'
    >>> mask_identifiers("198.51.100.7:5000,/home/alice/venv/lib")
    '***:5000,/home/***/venv/lib'
    >>> mask_identifiers("peer=10.0.0.5 cudnn==9.1.0.70")
    'peer=*** cudnn==9.1.0.70'
"""

from __future__ import annotations

import dataclasses
import functools
import re
import ipaddress
from typing import Any, Callable, Optional

__all__ = ["MASK", "SECRET_PARAMETER_WORDS", "SECRET_NAMES", "TOKEN_SHAPES", "TOKEN_SHAPE_LITERALS", "DEVICE_UUID_SHAPE",
           "mask_text", "mask_secrets", "mask_identifiers", "mask_strings"]

#: what a masked part becomes
MASK = "***"
#: every secret's key holds one of these words (case-insensitive): a value without any of them is not searched for a
#: secret query parameter or ``key=value`` pair (which keys are secrets' is :func:`_secret_key`'s to say)
SECRET_PARAMETER_WORDS = ("token", "key", "secret", "pass", "pwd", "sig", "auth", "cred", "session", "cookie", "private")
# where a word of a key starts and ends: not next to another letter, or where camelCase starts a word (dbPassword,
# OSSAccessKeyId, APIKey); digits, "_", "-" and "." separate words. Case-sensitive inside case-insensitive patterns.
_WORD_START = r"(?-i:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]))"
_WORD_END = r"(?-i:(?![A-Za-z])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z]))"
# what makes a key a secret's (a word of it, not a part of another word: key_len, num_keys, sort_keys, passed,
# passthrough, tokens_per_sec, max_tokens, tokenizer, keyword, monkey, author, credit, signal are not):
# - these words anywhere in it, whole (DB_PWD, X-Amz-Signature, cred=, Authorization=)
_SECRET_KEY_WORDS = r"pwd|creds?|sigs?|signatures?|private|authori[sz]ation"
# - these words anywhere in it, also ending a longer word (mypassword, NCCL_IB_PASSWD, clientsecret, oauth, jsessionid)
_SECRET_KEY_ENDINGS = r"passwords?|passwd|passphrase|secrets?|credentials?|auth|session(?:id)?|cookies?"
# - a key or a token named for a secret by the words before it (api_key, apiKey, APIKEY, access_tokens, AccessKeyId)
_QUALIFIED_KEY = (r"(?:(?:api|access|secret|private|auth|oauth|refresh|id|session|encryption|signing|client|bearer|ssh)"
                  r"[_.-]?)+(?:key|token)s?")
# - a key, a token or a pass as its last word (HF_TOKEN, UCX_IB_KEY, DB_PASS, token2, key=)
_LAST_KEY_WORD = r"(?:key|token|pass)[0-9]*(?![\w.-])"
#: the letters the words above start with: a position at another character is passed over at once (three times faster)
_KEY_WORD_LETTERS = "abceikoprst"


def _secret_key(name_char: str, bound: int, anchored: bool = True) -> str:
    """The expression of a secret's key made of up to ``bound`` characters of ``name_char`` either side of the word
    that makes it one (above). Not ``anchored`` (an expression searched for anywhere, not only where a key starts),
    it starts at that word: the characters before it are kept either way, and trying each prefix at each position
    made a long line of keys twenty times slower to mask."""
    before = rf"{name_char}{{0,{bound}}}?" if anchored else ""
    return (rf"{before}(?=[{_KEY_WORD_LETTERS}])(?:{_WORD_START}(?:{_SECRET_KEY_WORDS}|{_QUALIFIED_KEY}){_WORD_END}"
            rf"|(?:{_SECRET_KEY_ENDINGS}){_WORD_END}|{_WORD_START}{_LAST_KEY_WORD}){name_char}{{0,{bound}}}")


# where a token may start: not inside a longer word or number, but after "_" (``x_ghp_...``), after a JSON or C escape
# (``"...\\nghp_..."`` as a JSON log line writes a newline, Go's ``\\u003c``) and after a URL-encoded byte (``%20ghp_...``)
_TOKEN_START = (r"(?:(?<![A-Za-z0-9])|(?<=\\[ntrfvb0])|(?<=\\u[0-9A-Fa-f]{4})|(?<=\\x[0-9A-Fa-f]{2})"
                r"|(?<=%[0-9A-Fa-f]{2}))")
#: secrets recognised by their shape alone, masked whole wherever they stand (public formats of each issuer)
TOKEN_SHAPES = (
    _TOKEN_START + r"gh[pousr]_[A-Za-z0-9]{20,}",  # GitHub tokens
    _TOKEN_START + r"github_pat_[A-Za-z0-9_]{20,}",  # GitHub fine-grained tokens
    _TOKEN_START + r"(?:AKIA|ASIA)[A-Z0-9]{16}\b",  # AWS access key ids
    _TOKEN_START + r"LTAI[A-Za-z0-9]{12,28}\b",  # Alibaba Cloud AccessKey ids
    _TOKEN_START + r"hf_[A-Za-z0-9]{30,}",  # Hugging Face tokens (34 letters, often no digit)
    _TOKEN_START + r"sk-(?:proj-)?(?=[A-Za-z_-]*[0-9])[A-Za-z0-9_-]{20,}",  # OpenAI-style API keys
    _TOKEN_START + r"xox[abposr]-[A-Za-z0-9-]{10,}",  # Slack tokens
    _TOKEN_START + r"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*",  # JSON Web Tokens (header.payload.signature)
    r"(?<=hooks\.slack\.com/services/)[^\s\"'<>]+",  # Slack webhook path (the secret part)
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY-----|.*)",  # a private key block
    _TOKEN_START + r"STS\.[A-Za-z0-9]{20,}",  # Alibaba Cloud STS AccessKey ids (temporary credentials)
    _TOKEN_START + r"AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",  # Google API keys
    _TOKEN_START + r"ms-[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b",  # ModelScope SDK tokens
    _TOKEN_START + r"gl(?:pat|dt|rt|ptt|soat|ft)-[A-Za-z0-9_-]{20,}",  # GitLab personal, deploy, runner, trigger, ... tokens
    _TOKEN_START + r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])",  # npm access tokens
)
#: for each of :data:`TOKEN_SHAPES` (same order), the literal texts one of which every match holds (or, for the
#: Slack webhook path, follows): a value holding none of them is not searched for that shape
TOKEN_SHAPE_LITERALS = (
    ("ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
    ("github_pat_",),
    ("AKIA", "ASIA"),
    ("LTAI",),
    ("hf_",),
    ("sk-",),
    ("xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxr-"),
    ("eyJ",),
    ("hooks.slack.com/services/",),
    ("-----BEGIN ",),
    ("STS.",),
    ("AIza",),
    ("ms-",),
    ("glpat-", "gldt-", "glrt-", "glptt-", "glsoat-", "glft-"),
    ("npm_",),
)
#: where an identifier glued to what comes before it still starts a word: after a JSON log line's escape of a newline,
#: a tab or a carriage return (``\\n``), or after a ``\\uXXXX`` escape (Go's ``\\u003c``)
_AFTER_ESCAPE = r"(?<=\\[ntr])|(?<=\\u[0-9A-Fa-f]{4})"
#: GPU and MIG device UUIDs (``nvidia-smi -L``): ``GPU-<uuid>``, ``MIG-<uuid>`` and the older ``MIG-GPU-<uuid>/<gi>/<ci>``,
#: in either case (``mig-<uuid>``, as some tools print them); identifiers of the hardware, masked as ``GPU-***`` /
#: ``MIG-***`` (the prefix as written) unless ``--include-ids``
DEVICE_UUID_SHAPE = (r"(?:(?<![\w-])|" + _AFTER_ESCAPE + r")(?:([Mm][Ii][Gg])-[Gg][Pp][Uu]-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{1,12}){0,4}(?:/[0-9]{1,4}){0,2}"
                     r"|([Gg][Pp][Uu]|[Mm][Ii][Gg])-[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{1,12}){0,4})(?![\w-])")

#: a value as a secret is given quoted (the quotes kept, what is between them masked): in JSON-escaped quotes
#: (a JSON log line's string: backslash-quote ... backslash-quote, an escaped quote of the value inside it), in double
#: or single quotes with escaped quotes inside (``"a\\"b"``), with blanks and of any length up to the line's end, or a
#: quote never closed, up to a blank
# (each written as regular expression text: B is a backslash, Q a double quote)
_B, _Q = "\\\\", '"'
_QUOTED_VALUE = (
    "(?:"
    # JSON-escaped: \" ... \", inside it \\\" (an escaped quote of the value), \\ and any other escape
    f"{_B}{_Q}(?:[^{_Q}{_B}\\n]|{_B}{_B}{_B}{_Q}|{_B}{_B}|{_B}[^{_Q}{_B}\\n])*{_B}{_Q}"
    # double or single quotes, an escaped quote inside
    f"|{_Q}(?:[^{_Q}{_B}\\n]|{_B}.)*{_Q}|'(?:[^'{_B}\\n]|{_B}.)*'"
    # a quote never closed (JSON-escaped or not), up to a blank
    f"|{_B}?[{_Q}'][^\\s{_Q}'{_B}]+"
    ")"
)
# the user part of a URL runs to its last "@" before the path: a password may hold an "@" of its own
_URL_USERINFO = re.compile(r"(?<=://)[^/?#\s\"'<>]+@")
# user:password@host at the start of a value or after a separator, no scheme (a proxy setting)
#: (the password part holds no colon: from every colon of a long ``a:a:a:...@`` run it would otherwise scan to the
#: end, a quadratic cost; a ``user:pa:ss@`` is then masked from ``pa``, the password whole)
_BARE_USERINFO = re.compile(r"(?:(?<=^)|(?<=[\s,;=(\"':]))[^\s/?#@:,;=\"'()]+:[^\s/?#@:,;\"'()]*@(?=[\w\[])")
# the name is bounded and stops at the next "?": a line of many "?" costs linear time, not cubic
_SECRET_PARAMETER = re.compile(
    r"(?:(?<=[?&#;])|(?<=\\u0026))(" + _secret_key(r"[^=&#;?\s\\]", 256) + r"=)(?:" + _QUOTED_VALUE
    + r"|[^&#;\s\\\"]*)",
    re.IGNORECASE
)
#: names whose value follows a colon or a blank (``password: x``, ``"api_key": "x"``, ``--token x``, ``X-Api-Key: x``)
SECRET_NAMES = ("password", "passwd", "pwd", "secret", "token", "api_key", "apikey", "api-key", "access_key",
                "access-key", "secret_access_key", "aws_secret_access_key", "private_token", "private-token",
                "auth_token", "access_token", "x-api-key", "auth", "private_key", "privatekey", "private-key",
                "encryption_key", "signing_key", "credentials", "credential", "passphrase", "secretaccesskey",
                "accesskeysecret", "access_key_secret", "_pass", "-pass", "_pw", "-pw")
# "Basic <base64 of user:password>" anywhere (a header written without its "Authorization:" name)
_BASIC = re.compile(r"(?i)(\bbasic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
_SECRET_NAME = r"(?:" + "|".join(re.escape(n) for n in SECRET_NAMES) + r")"
# the name may carry a prefix (DB_PASSWORD:, --password:, mypassword:); it starts a word, so each word is tried once
# (linear time); the name's own quote (JSON's "password":, escaped in a JSON log line: \"password\":) kept
_SECRET_COLON = re.compile(
    r"(?i)(?<![\w-])([\w-]{0,256}?" + _SECRET_NAME + r"(?:[_-]?key)?(?:\\?[\"'])?[ \t]{0,64}:=?[ \t]{0,64})"
    r"(?!\*\*\*)(?:" + _QUOTED_VALUE + r"|[^\s,;\"'}]+)")
# a command-line flag whose name ends in a secret's name (--password, --hf-token, --api-key) and the value after it
_SECRET_FLAG = re.compile(r"(?i)(?<!\w)(--[\w-]{0,64}?" + _SECRET_NAME + r"\s+)(?!-)"
                          r"(?:" + _QUOTED_VALUE + r"|[^\s,;\"'}]+)")
_DEVICE_UUID = re.compile(DEVICE_UUID_SHAPE)
# key=value (or Perl's and Ruby's key => value, a shell or Perl variable's $key=value) in free text: a key that says
# secret (:func:`_secret_key`), the value up to a blank or separator; an
# authentication scheme first is kept and the credential after it masked (OTEL_EXPORTER_OTLP_HEADERS=
# "Authorization=Bearer <token>", https://opentelemetry.io/docs/specs/otel/protocol/exporter/)
_SECRET_PAIR = re.compile(
    r"(?:(?<=^)|(?<=[\s,;:(\"'{/$\[<|*@]))(" + _secret_key(r"[\w.-]", 256) + r"(?:\\?[\"'])?[ \t]{0,64}=>?(?!=)[ \t]{0,64}"
    r"(?:(?:basic|bearer|token|digest|negotiate)\s+)?)(?:" + _QUOTED_VALUE + r"|[^\s,;&\"')}\]>]+)",
    re.IGNORECASE,
)


# a secret's key (a name of SECRET_NAMES, or a key :func:`_secret_key` reads as a secret's) in escaped quotes or
# followed by an escaped separator, and the value up to the next escape, quote or separator: the forms a log writes
# a JSON document into another one's string with ({\\\"password\\\": ...}), or that Gson writes by default
# (\u0027password\u0027: ..., password\u003d...)
_ESC_QUOTE = r"(?:\\{1,7}[\"']|\\u00(?:22|27))"
_ESCAPED_SECRET = re.compile(
    r"(?i)((?:" + _SECRET_NAME + r"|" + _secret_key(r"[\w.-]", 64, anchored=False) + r")"
    # at least one escape: after the key, as the separator, or before the value
    r"(?:" + _ESC_QUOTE + r"[ \t]{0,16}(?::|=|\\u003[dD])[ \t]{0,16}" + _ESC_QUOTE + r"?"
    r"|[ \t]{0,16}\\u003[dD][ \t]{0,16}" + _ESC_QUOTE + r"?"
    r"|[ \t]{0,16}[:=][ \t]{0,16}" + _ESC_QUOTE + r"))(?!\*\*\*)([^\\\s,;}\"'&]{1,512})")


def _masked_escaped(match: "re.Match[str]") -> str:
    """The key and separator (group 1) kept and the value masked."""
    key = match.group(1)
    if "cookie" in key.lower() and "\\\\" not in key and "\\u00" not in key:
        return match.group(0)  # a cookie header the cookie rule reads (below): each value masked, its name kept
    return match.group(1) + MASK


def _masked_value(match: "re.Match[str]") -> str:
    """The key (group 1) kept and its value masked, inside its quotes when it was quoted: ``password="***"``."""
    value = match.group(0)[len(match.group(1)):]
    for quote in ("\\\"", "\"", "'"):  # JSON-escaped, double, single
        if len(value) >= 2 * len(quote) and value.startswith(quote) and value.endswith(quote):
            return match.group(1) + quote + MASK + quote
    return match.group(1) + MASK
# a Cookie or Set-Cookie header (a session cookie is a credential), as a header line or a header dict's item
# (``{'Cookie': 'sid=x'}``): the name, its quote and the quote that opens the value
_COOKIE_HEADER = re.compile(r"(?i)(?:\b|(?<=\\[ntr]))(?:set-)?cookie(\\?[\"']?)\s{0,4}:\s{0,4}(\\?[\"']?)")
#: the attributes of Set-Cookie (RFC 6265 section 4.1, and the later SameSite, Priority, Partitioned): kept
COOKIE_ATTRIBUTES = frozenset({"path", "domain", "expires", "max-age", "secure", "httponly", "samesite", "partitioned",
                               "priority"})
# one name=value pair of a cookie header's value: the value quoted or up to the next separator
_COOKIE_PAIR = re.compile(r"(?:(?<=^)|(?<=[;,\s]))([^=;,\s\"']{1,128})\s{0,4}=\s{0,4}(\"[^\"]*\"?|[^;,\s]*)")


def _mask_cookies(text: str) -> str:
    """``text`` with the value of every cookie of a ``Cookie`` or ``Set-Cookie`` header masked (``sid=***``, a quoted
    value inside its quotes), each cookie of a header several are folded into (``, ``), the attributes (Path, Expires,
    ...) kept. The header's value runs to the quote that opened it or to the end of the line; a value that holds no
    ``name=value`` pair is masked up to its first blank."""
    out, at = [], 0
    for header in _COOKIE_HEADER.finditer(text):
        if header.start() < at:
            continue
        start = header.end()
        quote = header.group(2)
        stops = [i for i in (text.find(quote, start) if quote else -1, text.find("\n", start)) if i >= 0]
        end = min(stops) if stops else len(text)
        value = text[start:end]
        if "=" in value:
            value = _COOKIE_PAIR.sub(_masked_cookie, value)
        elif value[:3] != MASK:
            value = re.sub(r"^[^\s;]+", MASK, value, count=1)
        out += [text[at:start], value]
        at = end
    return "".join(out) + text[at:] if out else text


def _masked_cookie(pair: "re.Match[str]") -> str:
    """One ``name=value`` pair of a cookie header: an attribute kept, a cookie's value masked (inside its quotes)."""
    name, value = pair.group(1), pair.group(2)
    if name.lower() in COOKIE_ATTRIBUTES or value == MASK or value == f'"{MASK}"':
        return pair.group()
    quoted = value[:1] == '"'
    return f"{name}=" + (f'"{MASK}"' if quoted else MASK)


# an e-mail address's local part (an identifier of a person; the domain is kept); not a package pinned to a
# version (``pkg@v1.2.3-beta.rc``, ``name@2.0.1``), whose "domain" starts with numbers and a dot
_EMAIL = re.compile(r"(?<![\w.+%-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@(?![vV]?[0-9]+\.[0-9]+(?:[.+-]|(?![\w-])))(?=[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![\w-]))")
# an Authorization header's credential (Basic/Bearer/... scheme kept), and a Bearer token anywhere
_AUTHORIZATION = re.compile(r"(?i)((?:\b|(?<=\\[ntr]))authorization\s*[:=]\s*(?:(?:basic|bearer|token|digest|negotiate)\s+)?)"
                            r"[^\s,;\"'\\]+")
_BEARER = re.compile(r"(?i)(\bbearer\s+)(?!\*\*\*)[A-Za-z0-9._~+/=-]{8,}")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
# an IPv4 address naming a peer: followed by :port or /prefix, or the host of a URL
_PEER_IPV4 = re.compile(rf"(?:(?<![\w.])|{_AFTER_ESCAPE}){_IPV4}(?=:[0-9]|/[0-9]{{1,2}}(?![\w.]))|(?<=://){_IPV4}(?![\w.])|(?<=@){_IPV4}(?![\w.])")
_BRACKETED_IPV6 = re.compile(r"\[[0-9A-Fa-f:.]*:[0-9A-Fa-f:.%\w]*\]")
# any other IPv4 address standing alone: not after a version operator, and not inside a file name or a package's
# version, which a dotted quad is part of as a longer token: after a word or a dot (v1.2.3.4, libfoo.so.1.2.3.4), after
# a name and a dash (libnccl-net-1.2.3.4.so, TensorRT-10.3.0.26), before a word, a dot and a letter or digit (an
# extension: 1.2.3.4.so) or a package revision (1.2.3.4-1ubuntu1, -1+cuda12.4, -1.el8); an address range's second
# address (10.0.0.1-10.0.0.9) follows a digit, and a sentence's full stop no letter, so both stay masked
_BARE_IPV4 = re.compile(rf"(?:(?<![\w.])|{_AFTER_ESCAPE})(?<![=<>~!]=)(?<![<>])(?<![A-Za-z]-){_IPV4}"
                        r"(?![\w]|\.[0-9A-Za-z]|-[0-9]+(?:[A-Za-z~+]|\.[A-Za-z]))")
# a version-looking IPv4 address standing alone is kept in a version field, unless it names a peer (above)
# a bare IPv6 candidate: hex groups and colons, at least two colons; checked with ipaddress
_BARE_IPV6 = re.compile(r"(?:(?<![\w:.])|(?<=\\[ntr]))[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:%[\w.-]+)?(?![\w:])")
_HOME_USER = re.compile(r"(/(?:home|Users)/)(?!\*\*\*(?:/|$))[^/\s:;,\"']+")
_WINDOWS_USER = re.compile(r"(?i)(\b[A-Z]:\\+(?:Users|Documents and Settings)\\+)(?!\*\*\*)[^\\/\s:;,\"']+")
_TILDE_USER = re.compile(r"(?<![\w~])~(?!\*\*\*)[A-Za-z_][A-Za-z0-9_.-]*(?=/|$|[\s:;,\"'])")
# what every IPv4 address holds (four dotted numbers of ASCII digits)
_DIGIT_DOT_DIGIT = re.compile(r"[0-9]\.[0-9]")
# the characters a case-insensitive pattern takes for an ASCII letter besides its two cases (the case folding of
# re: "\u0130" and "\u0131" are an "i", "\u017f" an "s", "\u212a" (the Kelvin sign) a "k")
_ASCII_CASE_TWINS = {"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"}


def _folded(text: str) -> str:
    """``text`` lower-cased so that every ASCII word a case-insensitive pattern finds in ``text`` is in it, lower case."""
    if not text.isascii():
        for twin, letter in _ASCII_CASE_TWINS.items():
            if twin in text:
                text = text.replace(twin, letter)
    return text.lower()


def _mentions(folded: str, words: "tuple[str, ...]") -> bool:
    """Whether one of ``words`` is in ``folded``."""
    return any(word in folded for word in words)


@functools.lru_cache(maxsize=64)
def _token_shapes(chosen: "tuple[int, ...]") -> "re.Pattern[str]":
    """One pattern of the :data:`TOKEN_SHAPES` numbered ``chosen``, tried in their order at each position."""
    return re.compile("|".join(f"(?:{TOKEN_SHAPES[i]})" for i in chosen), re.DOTALL)


# each shape's literals and the characters all of them hold: a scan for one character is several times faster
# than one for a text, so a value lacking one of them is passed over at that speed
_TOKEN_SHAPE_LOOKUPS = tuple((sorted(set.intersection(*map(set, literals))), literals) for literals in TOKEN_SHAPE_LITERALS)


def _mask_token_shapes(text: str) -> str:
    """``text`` with the :data:`TOKEN_SHAPES` masked: the shapes whose literals it lacks cannot match and are left out
    of the search, which is skipped when none is left."""
    chosen = tuple(i for i, (chars, literals) in enumerate(_TOKEN_SHAPE_LOOKUPS)
                   if all(c in text for c in chars) and any(literal in text for literal in literals))
    return _token_shapes(chosen).sub(MASK, text) if chosen else text


def mask_secrets(text: str) -> str:
    """``text`` with credentials replaced by ``***``: in URLs, ``user:password@`` prefixes, secret query parameters
    and ``key=value`` pairs, ``Authorization``/``Bearer`` credentials, and token-shaped secrets (:data:`TOKEN_SHAPES`)."""
    # the words of the case-insensitive patterns are looked for in the text as given: a "***" put in makes none
    dashes = "-" in text and "--" in text
    folded = _folded(text) if "=" in text or ":" in text or dashes else ""
    if "\\" in text and (_mentions(_folded(text), SECRET_NAMES) or _mentions(_folded(text), SECRET_PARAMETER_WORDS)):
        # first, a secret's key and value in escaped quotes the forms below do not read: JSON escaped twice
        # ({\\\"password\\\":\\\"x\\\"}), Gson's \u003d and \u0027 (password\u003dx)
        text = _ESCAPED_SECRET.sub(_masked_escaped, text)
    if "@" in text:
        if "://" in text:
            text = _URL_USERINFO.sub(MASK + "@", text)
        if ":" in text:
            text = _BARE_USERINFO.sub(MASK + "@", text)
    if "=" in text and _mentions(folded, SECRET_PARAMETER_WORDS):
        if any(c in text for c in "?&#;"):
            text = _SECRET_PARAMETER.sub(_masked_value, text)
        text = _SECRET_PAIR.sub(_masked_value, text)
    if (":" in text or dashes) and _mentions(folded, SECRET_NAMES):
        if ":" in text:
            text = _SECRET_COLON.sub(_masked_value, text)
        if dashes:
            text = _SECRET_FLAG.sub(_masked_value, text)
    lowered = _folded(text)  # "authorİzation" is matched by the pattern (re's case folding), so it is looked for
    if "z" in lowered and "authorization" in lowered:
        text = _AUTHORIZATION.sub(lambda m: m.group(1) + MASK, text)
    if "b" in lowered and "bearer" in lowered:
        text = _BEARER.sub(lambda m: m.group(1) + MASK, text)
    if "b" in lowered and "basic" in lowered:
        text = _BASIC.sub(_basic_credential, text)
    if "k" in lowered and "cookie" in lowered and ":" in text:
        text = _mask_cookies(text)
    return _mask_token_shapes(text)


def mask_text(text: str, identifiers: bool = True, keep_versions: bool = False) -> str:
    """The one masking function of every output path: ``text`` with its secrets (:func:`mask_secrets`) and, when
    ``identifiers``, its identifiers (:func:`mask_identifiers`, ``keep_versions`` passed on) replaced by ``***``.

    ``text`` must be the whole value (a log line, an environment variable, a snapshot's string): a value cut or split
    first may have lost the key or the shape its secret is known by, so callers mask first and cut or split after.
    Secrets are masked on every path; identifiers in ``--log`` quotes and in a snapshot written without
    ``--include-ids``, not in the facts of a snapshot read back (rules match MIG UUIDs with the devices).

    Examples:
        >>> mask_text('password="a b" peer=10.0.0.5')
        'password="***" peer=***'
        >>> mask_text('password="a b" peer=10.0.0.5', identifiers=False)
        'password="***" peer=10.0.0.5'
    """
    text = mask_secrets(text)
    return mask_identifiers(text, keep_versions) if identifiers else text


def _basic_credential(match: "re.Match[str]") -> str:
    """``Basic ***`` when the word after ``Basic`` is base64 of ``user:password`` (HTTP Basic authentication)."""
    import base64  # deferred: a plain or live check never needs it
    import binascii  # deferred: a plain or live check never needs it

    word = match.group(2)
    try:
        decoded = base64.b64decode(word + "=" * (-len(word) % 4), validate=True)
    except (binascii.Error, ValueError):
        return match.group()
    if b":" in decoded and all(32 <= b < 127 or b >= 128 for b in decoded):
        return match.group(1) + MASK
    return match.group()


def _ipv6_or_same(match: "re.Match[str]") -> str:
    candidate = match.group()
    address = candidate.split("%", 1)[0]
    if "::" not in address and address.count(":") != 7:
        return candidate  # 12:30:45, aa:bb:cc:dd:ee:ff
    if sum(1 for group in address.split(":") if group) < 2:
        return candidate  # "hook #0::", "::": one group or none is a label or punctuation, not an address to hide
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return candidate
    return MASK


#: IPv4 addresses every machine has, which name none (and tell a reader which interface a program chose): the
#: unspecified address, loopback (127.0.0.0/8, RFC 1122), link-local (169.254.0.0/16, RFC 3927) and Docker's
#: default bridge gateway (docker0's 172.17.0.1, https://docs.docker.com/engine/network/drivers/bridge/)
_SHARED_IPV4 = re.compile(r"0\.0\.0\.0|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|169\.254\.\d{1,3}\.\d{1,3}|172\.17\.0\.1")


def _ipv4_or_same(match: "re.Match[str]") -> str:
    return match.group() if _SHARED_IPV4.fullmatch(match.group()) else MASK


def mask_identifiers(text: str, keep_versions: bool = False) -> str:
    """``text`` with IP addresses and the user names of home directories replaced by ``***``; the IPv4 addresses
    every machine has (unspecified, loopback, link-local, docker0's 172.17.0.1: :data:`_SHARED_IPV4`) are kept.

    ``keep_versions``: the text is a version field; a four-part dotted number standing alone is a version
    (kept) unless it names a peer (``:port``, ``/prefix``, a URL's host).
    """
    # (a scan for one character first: several times faster than one for a text)
    if "-" in text and ("gpu-" in text.lower() or "mig-" in text.lower()):
        text = _DEVICE_UUID.sub(lambda m: f"{m.group(1) or m.group(2)}-{MASK}", text)
    if "." in text and _DIGIT_DOT_DIGIT.search(text):
        text = _PEER_IPV4.sub(_ipv4_or_same, text)
        if not keep_versions and "." in text and _DIGIT_DOT_DIGIT.search(text):
            text = _BARE_IPV4.sub(_ipv4_or_same, text)
    if "[" in text:  # the unspecified and loopback addresses ([::]:29500, [::1]) name no machine: kept
        text = _BRACKETED_IPV6.sub(lambda m: m.group() if m.group() in ("[::]", "[::1]") else f"[{MASK}]", text)
    # a bare candidate is masked only with "::" or all eight groups (seven colons)
    colons = text.count(":")
    if colons >= 2 and (colons >= 7 or "::" in text):
        text = _BARE_IPV6.sub(_ipv6_or_same, text)
    if "@" in text and "." in text:
        text = _EMAIL.sub(MASK + "@", text)
    if "/" in text and ("/home/" in text or "/Users/" in text):
        text = _HOME_USER.sub(lambda m: m.group(1) + MASK, text)
    if colons and "\\" in text and ":\\" in text and _mentions(_folded(text), ("users", "documents and settings")):
        text = _WINDOWS_USER.sub(lambda m: m.group(1) + MASK, text)
    if "~" in text:
        text = _TILDE_USER.sub("~" + MASK, text)
    return text


def _is_version_name(name: Any) -> bool:
    return isinstance(name, str) and name.lower().endswith("version")


def mask_strings(value: Any, mask: Callable[[str], str], version_mask: Optional[Callable[[str], str]] = None) -> Any:
    """``value`` with ``mask`` applied to every string inside it: dataclass fields are replaced in place,
    lists and dicts (their values) are rebuilt.  Returns the (same) dataclass, or the new container or string.

    ``version_mask`` (default ``mask``) is applied instead inside a dataclass field or under a dict key whose
    name ends in ``version`` (any case): ``cudnn.version``, ``torch.cudnn_version``, ``env["NV_CUDNN_VERSION"]``.
    """
    return _masked(value, mask, version_mask or mask, False)


def _masked(value: Any, mask: Callable[[str], str], version_mask: Callable[[str], str], in_version: bool) -> Any:
    if isinstance(value, str):
        return version_mask(value) if in_version else mask(value)
    if isinstance(value, list):
        return [_masked(v, mask, version_mask, in_version) for v in value]
    if isinstance(value, dict):
        return {k: _masked(v, mask, version_mask, in_version or _is_version_name(k)) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            inner = in_version or _is_version_name(field.name)
            setattr(value, field.name, _masked(getattr(value, field.name), mask, version_mask, inner))
    return value
