"""Word lists for the seeded site content (people, places, words)."""

__all__ = ["FIRST", "LAST", "CITIES", "STREETS", "WORDS"]

FIRST = ("Emma", "Liam", "Olivia", "Noah", "Ava", "Ethan", "Sophia", "Mason", "Isabella", "Lucas", "Mia", "Logan",
         "Amelia", "James", "Harper", "Elijah", "Evelyn", "Aiden", "Abigail", "Carter", "Emily", "Owen", "Ella",
         "Wyatt", "Grace", "Julian", "Chloe", "Levi", "Nora", "Isaac", "Hazel", "Caleb", "Aria", "Ryan", "Lily",
         "Nathan", "Zoe", "Adrian", "Stella", "Miles", "Leah", "Jonah", "Ruby", "Felix", "Ivy", "Oscar", "Clara",
         "Hugo", "Alice", "Theo", "Maya", "Victor", "Naomi", "Simon", "Elena", "Tobias", "Iris", "Dmitri", "Priya",
         "Kenji")
LAST = ("Lopez", "Smith", "Johnson", "Brown", "Garcia", "Miller", "Davis", "Wilson", "Anderson", "Thomas",
        "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Clark", "Lewis",
        "Robinson", "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
        "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
        "Patel", "Kim", "Novak", "Schmidt", "Rossi", "Silva", "Okafor", "Tanaka")
CITIES = ("Springfield", "Riverton", "Lakeside", "Fairview", "Georgetown", "Ashland", "Clinton", "Madison",
          "Oakdale", "Bristol", "Salem", "Dover", "Milton", "Hudson", "Kingston", "Franklin", "Burlington",
          "Greenville", "Marion", "Newport")
STREETS = ("Oak St", "Maple Ave", "Pine Rd", "Cedar Ln", "Elm St", "Birch Way", "Lake Dr", "Hill Rd", "Park Ave",
           "River Rd", "Sunset Blvd", "Main St")
WORDS = ("amber", "breeze", "cobalt", "delta", "ember", "falcon", "garnet", "harbor", "indigo", "juniper",
         "kestrel", "lumen", "meadow", "nimbus", "onyx", "prairie", "quartz", "raven", "summit", "tundra",
         "umber", "vertex", "willow", "zephyr", "aurora", "basalt", "cinder", "drift", "echo", "fjord")
