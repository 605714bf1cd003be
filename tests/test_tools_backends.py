"""The offline backends on their own: sheet operations, todo queries, movie search, academia edges."""

from __future__ import annotations

import pytest

from agentgym_text.core import ActionError
from agentgym_text.envs.tools.academia.toolkit import AcademiaToolkit
from agentgym_text.envs.tools.movie.toolkit import MovieToolkit
from agentgym_text.envs.tools.sheet.spreadsheet import SheetError, apply_formula
from agentgym_text.envs.tools.sheet.toolkit import SheetToolkit
from agentgym_text.envs.tools.todo.toolkit import TodoToolkit
from agentgym_text.envs.tools.weather.toolkit import WeatherToolkit

TABLE = [["Product", "Price", "Qty"], ["Pen", "2.5", "10"], ["Lamp", "30", "2"], ["Cup", "4", "7"]]


@pytest.fixture
def sheet() -> SheetToolkit:
    return SheetToolkit({"sheet_name": "Sheet1", "table": TABLE})


def test_formulas():
    cells = ["2.5", "30", "abc", ""]
    assert apply_formula("SUM", cells) == 32.5 and apply_formula("COUNT", cells) == 2
    assert apply_formula("AVERAGE", cells) == 16.25 and apply_formula("PRODUCT", cells) == 75
    assert apply_formula("MAX", cells) == 30 and apply_formula("MIN", cells) == 2.5
    assert apply_formula("MINUS", ["30", "2.5"]) == 27.5
    with pytest.raises(SheetError):
        apply_formula("MINUS", ["1", "2", "3"])
    with pytest.raises(SheetError):
        apply_formula("SUM", ["a", ""])


def test_sheet_formula_range_and_list(sheet):
    sheet.call(
        "update_cell_by_formula",
        {"operator": "SUM", "start_position": "C2", "end_position": "C4", "result_position": "C5"},
    )
    assert sheet.sheet.get(5, 3) == "19"
    assert sheet.call("get_value_by_formula", {"operator": "PRODUCT", "position_list": ["B2", "C2"]}) == "25"
    with pytest.raises(ActionError):
        sheet.call("get_value_by_formula", {"operator": "SUM", "start_position": "B2"})


def test_sheet_sort_insert_delete(sheet):
    sheet.call("sort_sheet_by_col", {"col_num": 2, "order": "des"})
    assert [row[0] for row in sheet.state()] == ["Product", "Lamp", "Cup", "Pen"]
    sheet.call("insert_rows", {"values_list": [["Mug", "5", "1"]], "row_idx": 2})
    assert sheet.state()[1] == ["Mug", "5", "1"]
    sheet.call("insert_cols", {"values_list": [["Id", "1", "2", "3", "4"]], "col_idx": 1})
    assert [row[0] for row in sheet.state()] == ["Id", "1", "2", "3", "4"]
    sheet.call("delete_batch_data", {"dimension": "col", "index_list": [1]})
    sheet.call("delete_batch_data", {"dimension": "row", "index_list": [2, 3]})
    assert sheet.state() == [["Product", "Price", "Qty"], ["Cup", "4", "7"], ["Pen", "2.5", "10"]]
    with pytest.raises(ActionError):
        sheet.call("delete_batch_data", {"dimension": "row", "index_list": [9]})


def test_sheet_update_range_merge_notes_filter(sheet):
    sheet.call("update_range", {"start_position": "A5", "end_position": "B5", "values_list": [["Total", 36.50]]})
    assert sheet.state()[4] == ["Total", "36.5", ""]
    with pytest.raises(ActionError):
        sheet.call("update_range", {"start_position": "A5", "end_position": "C5", "values_list": [["x"]]})
    sheet.call("merge_cells", {"start_position": "A1", "end_position": "B1"})
    assert sheet.state()[0][:2] == ["Product", ""] and sheet.sheet.merges == ["A1:B1"]
    sheet.call("update_note", {"position": "c3", "content": "check stock"})
    assert sheet.call("get_note", {"position": "C3"}) == "check stock"
    assert sheet.call("filter_cells", {"query": "lamp"}) == ["A3"]
    assert sheet.call("filter_cells", {"query": 2, "in_column": 3}) == ["C3"]
    assert sheet.call("get_A1_annotation", {"row": 3, "col": 28}) == "AB3"
    with pytest.raises(ActionError):
        sheet.call("get_cell_value", {"position": "3B"})


def test_todo_get_tasks_lists_open_tasks_only():
    todo = TodoToolkit({})
    try:
        before = [task["id"] for task in todo.call("get_tasks", {"project_id": "2301"})]
        todo.call("complete_task", {"task_id": before[0]})
        after = [task["id"] for task in todo.call("get_tasks", {"project_id": "2301"})]
        assert after == before[1:]
        with pytest.raises(ActionError) as error:
            todo.call("complete_task", {"task_id": before[0]})
        assert error.value.reason == "precondition_failed"
        assert todo.call("get_task_duration", {"task_id": "7102"})["duration"] == "3(hour)"
        with pytest.raises(ActionError):
            todo.call("update_task", {"task_id": "7102", "due_date": "June 9"})
    finally:
        todo.close()


def test_todo_sql_looking_ids_are_just_unknown_ids():
    todo = TodoToolkit({})
    try:
        with pytest.raises(ActionError):
            todo.call("delete_task", {"task_id": "7101' OR '1'='1"})
        assert len(todo.state()["tasks"]) == 15
    finally:
        todo.close()


def test_movie_search_and_credits_agree():
    movie = MovieToolkit({})
    film = movie.call("get_search_movie", {"movie_name": "the silent"})[0]
    cast = movie.call("get_movie_cast", {"movie_id": film["id"]})
    credits = movie.call("get_person_cast", {"person_id": cast[0]["id"]})
    assert any(credit["id"] == film["id"] and credit["character"] == cast[0]["character"] for credit in credits)
    with pytest.raises(ActionError):
        movie.call("get_movie_details", {"movie_id": 1})


def test_academia_edges_are_symmetric_and_citations_point_back_in_time():
    academia = AcademiaToolkit({})
    academia.call("loadPaperNet", {})
    academia.call("loadAuthorNet", {})
    for paper in list(academia.net.papers.values())[::10]:
        for cited in paper.cites:
            assert academia.net.paper(cited).year < paper.year
            assert "cites" in academia.call("paperEdgeCheck", {"node1": cited, "node2": paper.title})["relation"]
    author = next(iter(academia.net.authors.values())).name
    for other in academia.call("neighbourCheck", {"graph": "AuthorNet", "node": author}):
        forward = academia.call("authorEdgeCheck", {"node1": author, "node2": other})
        assert forward == academia.call("authorEdgeCheck", {"node1": other, "node2": author})


def test_weather_forecast_window():
    weather = WeatherToolkit({"current_date": "2024-03-10", "current_location": "Oslo"})
    point = {"latitude": 59.9139, "longitude": 10.7522}
    out = weather.call("get_temp_forecast", {**point, "start_date": "2024-03-11", "end_date": "2024-03-26"})
    assert len(out["daily"]["time"]) == 16
    for start, end in (("2024-03-10", "2024-03-12"), ("2024-03-11", "2024-03-27"), ("2024-03-12", "2024-03-11")):
        with pytest.raises(ActionError) as error:
            weather.call("get_rain_forecast", {**point, "start_date": start, "end_date": end})
        assert error.value.reason == "precondition_failed"
