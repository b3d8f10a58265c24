# Schemathesis hooks of the contract run (loaded through SCHEMATHESIS_HOOKS by run.mjs). Each one is narrow: one
# operation, one artefact or one check, for the reason beside it; docs/adr/0076-contract-seeded-rows.md and
# docs/adr/0077-contract-schema-rules.md list them (single-use values: docs/adr/0133).
import hashlib
import json
import os

import schemathesis
import schemathesis.resources.repository as _repository
from schemathesis.config import ProjectConfig
from schemathesis.generation.meta import TestPhase
from schemathesis.generation.modes import GenerationMode


# Schemathesis resolves an operation's configuration ([[operations]] entries merged over the project's and the phase's)
# afresh for every case it draws: with one entry per tuned operation that was about a tenth of the chat suite's CPU.
# The result depends only on the configuration, the operation and the phase, all fixed once the run has started, so each
# combination is resolved once. The cache keeps the configuration object it was computed for, so its id is never reused.
def _resolved_once(method):
    cache = {}

    def resolve(self, *, operation=None, **kwargs):
        key = (id(self), operation.label if operation is not None else None, tuple(sorted(kwargs.items())))
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = (self, method(self, operation=operation, **kwargs))
        return hit[1]

    return resolve


for _name in ("phases_for", "generation_for", "checks_config_for"):
    setattr(ProjectConfig, _name, _resolved_once(getattr(ProjectConfig, _name)))


# Values captured from answers (ids of created messages, rooms, keys) feed later cases. Schemathesis keeps up to 500 per
# parent and scans all of them on every draw of a parameter they can fill, so a suite that creates many rows spent a
# fifth of its CPU in that scan (bot suite, seed 777: 33 ms of Schemathesis CPU per case with 500, 26.5 ms with 32).
# The newest 32 per parent (for up to 20 parents per resource) still name live rows of every kind; the number of cases
# per operation does not change. The name is checked so that an upgrade of the pinned Schemathesis that drops it fails here.
assert hasattr(_repository, "PER_CONTEXT_CAPACITY")
_repository.PER_CONTEXT_CAPACITY = 32


# The coverage phase draws no dictionary values: its positive cases name the same made-up uuid in every id
# (e3e70682-...), so an operation whose positive cases all name a row answered only 404 or "names no account" and was
# reported as unreachable or as rejecting valid data. run.mjs writes seeded values for such ids, per
# parameter and per operation (CONTRACT_SEEDED, "coverage"); a positive coverage case carries them instead. This also
# keeps an operation's identity: Schemathesis gives up on alice for an operation after one 403 (a room where she is not
# owner, someone else's message), so her first valid case must name a row where she holds the role. Negative cases and
# every other phase are left alone.
_seeded = None


def _load_seeded():
    global _seeded
    if _seeded is None:
        path = os.environ.get("CONTRACT_SEEDED")
        _seeded = json.load(open(path, encoding="utf-8")) if path else {}
    return _seeded


@schemathesis.hook("map_case")
def seeded_coverage_ids(context, case):
    meta = case.meta
    operation = context.operation
    if meta is None or operation is None or meta.phase.name != TestPhase.COVERAGE or meta.generation.mode != GenerationMode.POSITIVE:
        return case
    coverage = _load_seeded().get("coverage", {})
    values = {**coverage.get("parameters", {}), **coverage.get("operations", {}).get(operation.schema.get_operation_id(operation), {})}
    for key, value in values.items():
        location, _, name = key.partition(".")
        if location == "path" and case.path_parameters and name in case.path_parameters:
            case.path_parameters[name] = value
        elif location == "query" and case.query and name in case.query:
            case.query[name] = value
        elif location == "body" and isinstance(case.body, dict):
            # "name[*]": every item of the list keeps its place, with the seeded values in turn.
            if name.endswith("[*]"):
                name = name[:-3]
                if isinstance(case.body.get(name), list):
                    pool = value if isinstance(value, list) else [value]
                    case.body[name] = [pool[i % len(pool)] for i in range(len(case.body[name]))]
            elif name in case.body:
                case.body[name] = value
            # "object.field": a field of an object in the body (body.recurrence.timeZone), when both are there.
            elif "." in name and isinstance(case.body.get(name.partition(".")[0]), dict):
                parent, _, field = name.partition(".")
                if field in case.body[parent]:
                    case.body[parent][field] = value
    return case


# Every phase may reuse ids captured from earlier answers, so a case of deleteRoom or leaveRoom could take away the
# seeded rooms that every other operation's dictionary names, and turn the rest of the run into 404s (and the Bot API's
# deleteMessage, given a room and message id from an edit's answer, the messages kept for editing). Such cases are
# not sent (run.mjs lists, per operation, the values that are kept out: CONTRACT_SEEDED, "protect"); the operations
# still run on their own seeded rows and on the rows the run creates.
@schemathesis.hook("filter_case")
def keep_seeded_rows(context, case):
    operation = context.operation
    if operation is None:
        return True
    rules = _load_seeded().get("protect", {}).get(operation.schema.get_operation_id(operation))
    if not rules:
        return True
    # Path values, and top-level body fields for the Bot API, whose methods name their rows in the body (chat_id).
    params = {**(case.body if isinstance(case.body, dict) else {}), **(case.path_parameters or {})}
    # Each rule is a set of values that together name a protected row (e.g. a seeded room and its owner).
    return not any(all(str(params.get(name, "")).lower() in [v.lower() for v in values] for name, values in rule.items()) for rule in rules)


@schemathesis.hook.apply_to(operation_id="forwardMessages")
def map_case(context, case):
    """Ids drawn from the `forwardable` dictionary can repeat in body.messageIds, which the schema declares
    uniqueItems: the substitution made the positive case invalid, so its 400 is no finding. A positive case keeps
    each id once (in order); negative cases are left alone, so duplicates are still sent as invalid data."""
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
        return case
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("messageIds"), list):
        unique = []
        for item in body["messageIds"]:
            if item not in unique:
                unique.append(item)
        body["messageIds"] = unique
    return case


# DELETE /api/v1/rooms/{roomId}/messages/{messageId} hides the message for the caller only (the seed's "delete"); the
# message stays in the room for everyone, and GET one still answers it to the caller (hiddenForMe: true) so that it
# can be restored. use_after_free's premise, that a successful DELETE removed the resource, does not hold for this
# one operation: its findings are dropped, and only for that DELETE. Every other check on it, and use_after_free after
# every other DELETE (a room, a reaction, a pin, a snap, a mute), still apply.
@schemathesis.hook
def filter_failure(context, failure, case, response):
    from schemathesis.openapi.checks import UseAfterFree

    return not (isinstance(failure, UseAfterFree) and failure.operation == "DELETE /api/v1/rooms/{roomId}/messages/{messageId}")


# Dictionaries hold strings and numbers only, and a channel rule is an object in its own small language (docs/chat.md,
# "Channels"): generated objects are almost never rules, so PUT /channels/{id}/rule was refused in
# every valid case of a phase. Half of the valid cases (chosen by the case's own content, so a seed replays the same
# choice) carry a seeded rule instead, the object counterpart of a dictionary bound with probability 0.5 (run.mjs
# writes them: CONTRACT_SEEDED, "objects", per operation and body field). Negative cases and the other half are left
# alone.
@schemathesis.hook("map_case")
def seeded_objects(context, case):
    meta = case.meta
    operation = context.operation
    if meta is None or operation is None or meta.generation.mode != GenerationMode.POSITIVE or not isinstance(case.body, dict):
        return case
    fields = _load_seeded().get("objects", {}).get(operation.schema.get_operation_id(operation))
    if not fields:
        return case
    digest = int(hashlib.sha256(json.dumps(case.body, sort_keys=True, default=str).encode()).hexdigest(), 16)
    if digest % 2 == 0:
        return case
    for name, pool in fields.items():
        if name in case.body:
            case.body[name] = pool[(digest // 2) % len(pool)]
    return case


# The chat, partner and workspace listeners refuse a JSON body with a `__proto__` key, or a `constructor` key holding a
# `prototype`, anywhere in it (a guard against prototype poisoning; 400 invalid_request). The documents state it for
# the keys of every open map (propertyNames, scripts/generate.mjs) but cannot for the values of any type inside one
# (a test payload, custom fields), where the generator may still nest such a key. A positive case renames those keys
# (`__proto__` to `__proto__x`); negative cases are left alone.
def _without_poisoning_keys(value):
    if isinstance(value, list):
        return [_without_poisoning_keys(item) for item in value]
    if not isinstance(value, dict):
        return value
    renamed = {}
    for key, item in value.items():
        poisoned = key == "__proto__" or (key == "constructor" and isinstance(item, dict) and "prototype" in item)
        renamed[f"{key}x" if poisoned else key] = _without_poisoning_keys(item)
    return renamed


@schemathesis.hook("map_case")
def no_nested_poisoning_keys(context, case):
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE or not isinstance(case.body, (dict, list)):
        return case
    case.body = _without_poisoning_keys(case.body)
    return case


# Some seeded values are taken once: a press is answered once (answerCallbackQuery), and refused from then on. The
# fuzzer replays the values it drew, the simplest first, so most later cases named a press already answered, and a
# seed could leave the operation without a single accepted case (warned as never reached). A positive case that names
# one of these values (run.mjs writes them: CONTRACT_SEEDED, "singleUse", per operation and body field) gets the next
# one not handed out yet. The position is kept in a file beside the seeded values, so that a second run of a warned
# operation goes on where the first stopped. Negative cases are left alone.
_handed_out = None


def _handed_out_file():
    return os.environ.get("CONTRACT_SEEDED", "contract-seeded") + ".handed-out.json"


@schemathesis.hook("map_case")
def single_use_values(context, case):
    global _handed_out
    meta = case.meta
    operation = context.operation
    if meta is None or operation is None or meta.generation.mode != GenerationMode.POSITIVE or not isinstance(case.body, dict):
        return case
    operation_id = operation.schema.get_operation_id(operation)
    fields = _load_seeded().get("singleUse", {}).get(operation_id)
    if not fields:
        return case
    if _handed_out is None:
        try:
            with open(_handed_out_file(), encoding="utf-8") as f:
                _handed_out = json.load(f)
        except (OSError, ValueError):
            _handed_out = {}
    for name, pool in fields.items():
        key = f"{operation_id}.{name}"
        given = _handed_out.get(key, 0)
        if case.body.get(name) not in pool or given >= len(pool):
            continue
        case.body[name] = pool[given]
        _handed_out[key] = given + 1
        with open(_handed_out_file(), "w", encoding="utf-8") as f:
            json.dump(_handed_out, f)
    return case


# sendPoll's rules that its schema cannot state: options differ ignoring case and surrounding spaces, and a quiz names
# its correct options among those given (one unless allows_multiple_answers). Random positive cases broke them most of
# the time (duplicate short options, quizzes without or beyond their options), so the operation was reported as
# rejecting valid data. A positive case is made to keep them, everything else as drawn; negative cases are left alone.
@schemathesis.hook("map_case")
def coherent_polls(context, case):
    operation = context.operation
    meta = case.meta
    if operation is None or operation.schema.get_operation_id(operation) != "sendPoll" or not isinstance(case.body, dict):
        return case
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE or not isinstance(case.body.get("options"), list):
        return case
    seen = set()
    options = []
    for index, option in enumerate(case.body["options"]):
        text = option.get("text") if isinstance(option, dict) else option
        if not isinstance(text, str) or text.strip().lower() in seen:
            text = f"Option {index + 1}"
            option = text if not isinstance(option, dict) else {**option, "text": text}
        seen.add(text.strip().lower())
        options.append(option)
    case.body["options"] = options
    if case.body.get("type") == "quiz":
        correct = [i for i in case.body.get("correct_option_ids", []) if isinstance(i, int) and i < len(options)]
        case.body["correct_option_ids"] = sorted(set(correct))[: None if case.body.get("allows_multiple_answers") else 1] or [0]
        case.body.pop("correct_option_id", None)
    return case


# Formatting (parse_mode and explicit entities) is refused for markup that does not parse, an unknown mode, or a text
# longer than Telegram's limits once parsed (4096, a caption 1024): generated strings are almost never valid markup,
# so random positive cases of every sending method were mostly refused. A positive case sends its text without
# formatting, cut to the limit after parsing; negative cases are left alone. test/integration/bots/formatting*.test.ts
# cover the formatting itself.
_formatting_keys = (
    "parse_mode",
    "entities",
    "caption_entities",
    "question_parse_mode",
    "question_entities",
    "explanation_parse_mode",
    "explanation_entities",
)
_parsed_limits = {"text": 4096, "caption": 1024}


def _plain(body):
    for key in _formatting_keys:
        body.pop(key, None)
    for key, limit in _parsed_limits.items():
        # The limits count UTF-16 code units, as JavaScript strings do.
        if isinstance(body.get(key), str) and len(body[key].encode("utf-16-le")) > 2 * limit:
            body[key] = body[key].encode("utf-16-le")[: 2 * limit].decode("utf-16-le", errors="ignore")


@schemathesis.hook("map_case")
def plain_texts(context, case):
    meta = case.meta
    if meta is None or meta.generation.mode != GenerationMode.POSITIVE or not isinstance(case.body, dict):
        return case
    _plain(case.body)
    media = case.body.get("media")
    if isinstance(media, list):
        for item in media:
            if isinstance(item, dict):
                _plain(item)
    return case
