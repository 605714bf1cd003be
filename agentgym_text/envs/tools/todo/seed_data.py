"""The agenda every todo episode starts from (authored here, in the spirit of AgentBoard's projects.json)."""

from __future__ import annotations

__all__ = ["PROJECTS", "TASKS", "CURRENT_DATE", "CURRENT_LOCATION"]

CURRENT_DATE = "2015-06-01"
CURRENT_LOCATION = "New York"

# (id, name, order, color, is_favorite)
PROJECTS = (
    ("2301", "Homework and Assignments", 0, "blue", False),
    ("2302", "Extracurricular Activities", 1, "green", False),
    ("2303", "Household Chores", 2, "orange", True),
    ("2304", "Travel Plans", 3, "violet", False),
)

# (id, project_id, order, content, description, due_date, duration_amount, duration_unit, priority)
TASKS = (
    ("7101", "2301", 0, "Finish algebra worksheet", "Place: Library, room 2. Tips: show every step.",
     "2015-06-03", 45, "minute", 3),
    ("7102", "2301", 1, "Write history essay", "Place: Home desk. Tips: at least 1500 words on the Silk Road.",
     "2015-06-08", 3, "hour", 4),
    ("7103", "2301", 2, "Read biology chapter 7", "Place: Study hall. Tips: take notes on cell division.",
     "2015-06-05", 90, "minute", 2),
    ("7104", "2301", 3, "Prepare chemistry lab report", "Place: Science lab. Tips: include the titration data.",
     "2015-06-12", 2, "hour", 3),
    ("7201", "2302", 0, "Soccer practice", "Place: Riverside field. Tips: bring shin guards.",
     "2015-06-02", 2, "hour", 2),
    ("7202", "2302", 1, "Debate club meeting", "Place: Room 114. Tips: prepare the opening statement.",
     "2015-06-04", 60, "minute", 3),
    ("7203", "2302", 2, "Piano lesson", "Place: Music school on 5th Avenue. Tips: practise the sonata.",
     "2015-06-06", 45, "minute", 1),
    ("7204", "2302", 3, "Volunteer at food bank", "Place: Community center. Tips: wear closed shoes.",
     "2015-06-10", 3, "hour", 2),
    ("7301", "2303", 0, "Clean the kitchen", "Place: Home. Tips: start with the fridge.",
     "2015-06-02", 40, "minute", 2),
    ("7302", "2303", 1, "Do the laundry", "Place: Basement laundry room. Tips: separate whites.",
     "2015-06-03", 90, "minute", 1),
    ("7303", "2303", 2, "Water the plants", "Place: Balcony. Tips: the fern needs extra water.",
     "2015-06-04", 15, "minute", 1),
    ("7304", "2303", 3, "Fix the leaking tap", "Place: Bathroom. Tips: buy a new washer first.",
     "2015-06-09", 30, "minute", 4),
    ("7401", "2304", 0, "Book train tickets to Boston", "Place: Online. Tips: compare morning departures.",
     "2015-06-05", 20, "minute", 3),
    ("7402", "2304", 1, "Renew passport", "Place: Post office on Main Street. Tips: bring two photos.",
     "2015-06-15", 1, "hour", 4),
    ("7403", "2304", 2, "Pack for the weekend trip", "Place: Home. Tips: check the weather first.",
     "2015-06-11", 45, "minute", 2),
)
