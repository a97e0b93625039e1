#!/usr/bin/env python3
"""Writes the benchmark datasets (benchmarks/datasets/*.jsonl) from the word lists below.

Deterministic: no randomness, so the files only change when this script does. Run from the repository
root: python3 benchmarks/generate.py
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

PRODUCTS = ["phone", "laptop", "kettle", "headphones", "backpack", "desk lamp", "coffee grinder", "monitor",
            "keyboard", "tent", "blender", "camera"]
POSITIVE = ["I love this {p}. It works perfectly every day.", "The {p} arrived early and is excellent.",
            "Great {p}, very fast and easy to use.", "Best {p} I have owned; worth every penny.",
            "The {p} is sturdy, quiet and beautiful."]
NEGATIVE = ["The {p} broke after two days. Waste of money.", "Terrible {p}: it overheats and the support ignored me.",
            "The {p} stopped working within a week.", "Cheap plastic {p}, it cracked on first use.",
            "The {p} is loud, slow and the battery dies fast."]
NEUTRAL = ["The {p} arrived on Tuesday in a brown box.", "The {p} comes in black and grey.",
           "I ordered the {p} last month for my office.", "The {p} weighs about two kilograms.",
           "The {p} has a USB-C port on the side."]

TICKETS = {
    "billing": ["I was charged twice for my {p} order.", "Please refund the extra fee on my invoice for the {p}.",
                "My card was billed but the {p} order shows unpaid."],
    "technical": ["The {p} app crashes when I open settings.", "My {p} will not connect to wifi after the update.",
                  "The {p} shows error 42 on startup."],
    "account": ["I cannot log in to my account to register the {p}.", "Please change the email on my account, I bought a {p}.",
                "My password reset link for the {p} store expired."],
    "shipping": ["Where is my {p}? Tracking has not moved in a week.", "The {p} was delivered to the wrong address.",
                 "My {p} parcel arrived damaged by the courier."],
}

CITIES = ["London", "Paris", "New York", "Tokyo", "Berlin"]
TRAVEL = ["What's the weather in {c} today?", "Is it raining in {c}?", "What time is it in {c} right now?",
          "Should I pack an umbrella for {c}?", "Tell me a fun fact about {c}."]


def write(name, rows):
    path = os.path.join(HERE, "datasets", name)
    with open(path, "w") as out:
        for row in rows:
            out.write(json.dumps(row, sort_keys=True) + "\n")
    print(f"{path}: {len(rows)} cases")


def reviews():
    rows = []
    for index, product in enumerate(PRODUCTS):
        for label, templates in (("positive", POSITIVE), ("negative", NEGATIVE), ("neutral", NEUTRAL)):
            for variant in range(2 if label != "neutral" else 1):
                text = templates[(index + variant) % len(templates)].format(p=product)
                row = {"id": f"{label}-{product.replace(' ', '-')}-{variant}", "prompt": text,
                       "expect": {"equals": label}, "tags": [label]}
                if (index + variant) % 4 == 0:
                    row["repeat"] = 3
                rows.append(row)
    return rows


def tickets():
    rows = []
    for index, product in enumerate(PRODUCTS[:10]):
        for label, templates in TICKETS.items():
            text = templates[index % len(templates)].format(p=product)
            row = {"id": f"{label}-{product.replace(' ', '-')}", "prompt": text, "expect": {"equals": label}, "tags": [label]}
            if index % 3 == 0:
                row["repeat"] = 2
            rows.append(row)
    return rows


def extraction():
    rows = []
    for index, product in enumerate(PRODUCTS[:8]):
        for label, templates in TICKETS.items():
            text = templates[(index + 1) % len(templates)].format(p=product)
            rows.append({"id": f"extract-{label}-{product.replace(' ', '-')}", "prompt": text,
                         "expect": {"constraints": {"maxViolations": 0}}, "tags": [label]})
    return rows


def travel():
    rows = []
    for city in CITIES:
        for index, template in enumerate(TRAVEL):
            row = {"id": f"{city.lower().replace(' ', '-')}-{index}", "prompt": template.format(c=city), "tags": ["travel"]}
            if index < 2:
                row["expect"] = {"toolCalls": {"ordered": [{"name": "getWeather", "arguments": {"city": city}}]}}
            elif index == 2:
                row["expect"] = {"toolCalls": {"ordered": [{"name": "getTime", "arguments": {"city": city}}]}}
            elif index == 3:
                row["expect"] = {"toolCalls": {"disallowed": ["getTime"]}}
            else:
                row["expect"] = {"toolCalls": {"disallowed": ["getWeather", "getTime"]}}
            if index == 0:
                row["repeat"] = 2
            rows.append(row)
    return rows


if __name__ == "__main__":
    write("reviews.jsonl", reviews())
    write("tickets.jsonl", tickets())
    write("extraction.jsonl", extraction())
    write("travel.jsonl", travel())
