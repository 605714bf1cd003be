"""Movie: a generated film database (films, people, companies, countries, cast, crew, keywords)."""
