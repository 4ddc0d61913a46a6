"""web/http"""
