"""interchange"""
