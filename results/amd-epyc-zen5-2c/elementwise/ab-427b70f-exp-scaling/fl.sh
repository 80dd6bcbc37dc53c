bash /tmp/alt.sh /tmp/res_f512 3 activate:gelu_tanh,activate:gelu_erf,activate:sigmoid,activate:silu,bias_act:gelu_tanh s M F1
TGEMM_ARCH=avx2 bash /tmp/alt.sh /tmp/res_f2 3 activate:gelu_tanh,activate:gelu_erf,activate:sigmoid,activate:silu,bias_act:gelu_tanh s M F1
