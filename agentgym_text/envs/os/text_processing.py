"""Text-processing templates (AgentBench's third OS group): answers that need pipes over log and data files."""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta

from agentgym_text.envs.os.generator import Files, Milestone, TaskInstance, q
from agentgym_text.envs.os.people import USERS

__all__ = ["top_ip", "sum_column", "failed_logins", "extract_domains"]

_PEOPLE = USERS
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _ip(rng: random.Random) -> str:
    return f"{rng.choice((10, 172, 192))}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def _weights_with_unique_top(rng: random.Random, count: int, total: int) -> list[int]:
    while True:
        weights = [rng.randint(1, total // count + 6) for _ in range(count)]
        ranked = sorted(weights, reverse=True)
        if ranked[0] >= ranked[1] + 2:
            return weights


def top_ip(rng: random.Random) -> TaskInstance:
    path = "/var/log/nginx/access.log"
    ips = list(dict.fromkeys(_ip(rng) for _ in range(rng.randint(5, 8))))
    only_404 = rng.random() < 0.5
    counts = _weights_with_unique_top(rng, len(ips), rng.randint(30, 70))
    events = []
    for ip, count in zip(ips, counts):
        events += [(ip, "404" if only_404 else rng.choice(("200", "200", "304", "404", "500")))] * count
    if only_404:  # padding requests that are not 404s, with a different leader
        events += [(rng.choice(ips), rng.choice(("200", "301", "500"))) for _ in range(rng.randint(30, 60))]
    rng.shuffle(events)
    start = datetime(2023, 5, 1) + timedelta(days=rng.randint(0, 150))
    lines = []
    for index, (ip, status) in enumerate(events):
        moment = start + timedelta(seconds=index * rng.randint(3, 90))
        stamp = f"{moment.day:02d}/{_MONTHS[moment.month - 1]}/{moment.year}:{moment:%H:%M:%S} +0000"
        method, page = (
            rng.choice(("GET", "GET", "POST")),
            rng.choice(("/", "/login", "/api/items", "/static/app.js", "/favicon.ico", "/admin")),
        )
        lines.append(f'{ip} - - [{stamp}] "{method} {page} HTTP/1.1" {status} {rng.randint(120, 9000)}')
    files = Files()
    files.write(path, "\n".join(lines) + "\n")
    counted = {}
    for ip, status in events:
        if not only_404 or status == "404":
            counted[ip] = counted.get(ip, 0) + 1
    best = max(counted, key=counted.__getitem__)
    which = "requests that were answered with status 404" if only_404 else "requests"
    select = "$9 == 404 {print $1}" if only_404 else "{print $1}"
    return TaskInstance(
        template="top-ip",
        group="text processing",
        description=f"Which IP address made the most {which} according to {path}? Answer with the IP address only.",
        init=files.script(),
        solution=(f"head -n 5 {path}", f"awk '{select}' {path} | sort | uniq -c | sort -rn | head -n 5"),
        milestones=(
            Milestone(f"look at {path}", "all", targets=(lines[0],)),
            Milestone(
                "count the requests per IP address", "regex", pattern=rf"^\s*{counted[best]}\s+{re.escape(best)}\s*$"
            ),
        ),
        answer=best,
        explore=(f"head -n 3 {path}", f"wc -l {path}", "ls -la /var/log/nginx", "pwd"),
    )


def sum_column(rng: random.Random) -> TaskInstance:
    user = rng.choice(_PEOPLE[:10])
    path = f"/home/{user}/{rng.choice(('sales', 'orders', 'shipments', 'inventory'))}.csv"
    regions = ("North", "South", "East", "West")
    header = "date,region,product,units,amount"
    rows = []
    day = datetime(2023, 1, 1) + timedelta(days=rng.randint(0, 200))
    for _ in range(rng.randint(20, 45)):
        day += timedelta(days=rng.randint(0, 3))
        rows.append(
            (
                f"{day:%Y-%m-%d}",
                rng.choice(regions),
                rng.choice(("widget", "gadget", "gizmo", "doohickey")),
                rng.randint(1, 40),
                rng.randint(5, 900),
            )
        )
    region = rng.choice(regions)
    if not any(row[1] == region for row in rows):
        rows[0] = (rows[0][0], region, *rows[0][2:])
    column = rng.choice(("units", "amount"))
    index = header.split(",").index(column)
    total = sum(row[index] for row in rows if row[1] == region)
    files = Files()
    files.write(path, header + "\n" + "".join(",".join(map(str, row)) + "\n" for row in rows))
    return TaskInstance(
        template="sum-column",
        group="text processing",
        description=f"What is the total of the {column} column in {path} over the rows whose region is {region}? "
        "Answer with a number.",
        init=files.script(),
        solution=(f"head -n 5 {path}", f"awk -F, '$2 == \"{region}\" {{s += ${index + 1}}} END {{print s}}' {path}"),
        milestones=(
            Milestone(f"look at the header of {path}", "all", targets=(header,)),
            Milestone(f"compute the {column} total for {region}", "regex", pattern=rf"^\s*{total}\s*$"),
        ),
        answer=str(total),
        explore=(f"head -n 3 {path}", f"wc -l {path}", f"ls -la /home/{user}", "pwd"),
    )


def failed_logins(rng: random.Random) -> TaskInstance:
    path = "/var/log/auth.log"
    people = rng.sample(_PEOPLE, rng.randint(6, 10))
    failing = people[: rng.randint(3, len(people) - 2)]
    clean = [p for p in people if p not in failing]
    moment = datetime(2023, 4, 1) + timedelta(days=rng.randint(0, 200))
    lines = []
    events = [("fail", p) for p in failing for _ in range(rng.randint(1, 4))]
    events += [("ok", p) for p in people if rng.random() < 0.8 or p in clean]
    events += [("cron", "root") for _ in range(rng.randint(3, 8))]
    rng.shuffle(events)
    for kind, person in events:
        moment += timedelta(seconds=rng.randint(5, 900))
        pid, ip, port = rng.randint(1000, 30000), _ip(rng), rng.randint(1024, 65000)
        head = f"{moment:%Y-%m-%dT%H:%M:%S}+00:00 sandbox"
        if kind == "fail":
            lines.append(f"{head} sshd[{pid}]: Failed password for {person} from {ip} port {port} ssh2")
        elif kind == "ok":
            lines.append(f"{head} sshd[{pid}]: Accepted password for {person} from {ip} port {port} ssh2")
        else:
            lines.append(f"{head} CRON[{pid}]: pam_unix(cron:session): session opened for user root(uid=0)")
    files = Files()
    files.write(path, "\n".join(lines) + "\n")
    grep = f"grep 'Failed password' {path}"
    names = f"{grep} | sed 's/.*Failed password for \\([^ ]*\\) from.*/\\1/' | sort -u"
    return TaskInstance(
        template="failed-logins",
        group="text processing",
        description=f"How many distinct user names appear in failed password attempts in {path}? Answer with a number.",
        init=files.script(),
        solution=(f"{grep} | head -n 5", names, f"{names} | wc -l"),
        milestones=(
            Milestone("look at the failed attempts", "regex", pattern=r"Failed password for \S+ from"),
            Milestone(
                "single out the users with failed attempts", "select", targets=tuple(failing), others=tuple(clean)
            ),
        ),
        answer=str(len(failing)),
        explore=(f"head -n 3 {path}", f"wc -l {path}", "ls -la /var/log", "pwd"),
    )


def extract_domains(rng: random.Random) -> TaskInstance:
    user = rng.choice(_PEOPLE[:10])
    source, target = f"/home/{user}/contacts.txt", f"/home/{user}/domains.txt"
    domains = rng.sample(
        (
            "example.com",
            "mail.example.org",
            "acme.io",
            "uni-bonn.de",
            "post.cz",
            "gmx.net",
            "proton.me",
            "fastmail.fm",
            "corp.example.net",
            "web.de",
        ),
        rng.randint(4, 7),
    )
    first = ("Ann", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ida", "Jon", "Kai", "Lea")
    last = ("Meyer", "Novak", "Ortiz", "Park", "Quinn", "Rossi", "Sato", "Toth", "Ueda", "Vogel")
    lines = []
    for index in range(rng.randint(8, 16)):
        domain = domains[index] if index < len(domains) else rng.choice(domains)
        given, family = rng.choice(first), rng.choice(last)
        mail = f"{given.lower()}.{family.lower()}@{domain}"
        lines.append(f"{given} {family} <{mail}>" if rng.random() < 0.6 else f"{mail} ({given} {family})")
    rng.shuffle(lines)
    files = Files()
    files.write(source, "\n".join(lines) + "\n")
    wanted = sorted(domains)
    extract = f"grep -o '@[A-Za-z0-9.-]*' {source} | cut -c2- | sort -u"
    return TaskInstance(
        template="extract-domains",
        group="text processing",
        description=f"Write the distinct e-mail domains that appear in {source} to {target}, one per line, sorted "
        "alphabetically, with nothing else in the file. Take the finish action when you are done.",
        init=files.script(),
        solution=(f"head -n 5 {source}", extract, f"{extract} > {target}", f"cat {target}"),
        milestones=(
            Milestone(f"look at {source}", "all", targets=(lines[0],)),
            Milestone("extract the sorted distinct domains", "lines", targets=tuple(wanted)),
        ),
        check=f'[ "$(cat {target})" = {q(chr(10).join(wanted))} ]',
        explore=(f"head -n 3 {source}", f"wc -l {source}", f"ls -la /home/{user}", "pwd"),
    )
